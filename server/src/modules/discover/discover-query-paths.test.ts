import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoverResponse } from '@margins/common';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

// The cheaper ways the search takes at scale give what the plain ones gave: a phrase checked
// on the candidates holding its words, a snippet cut from a window of the opening around the
// first match, the rank from the document's head.

let test: TestApp;
let anonymous: TestClient;
const ids: Record<string, number> = {};
// Over a thousand characters before the phrase: beyond the snippet's window from the start.
const filler = Array.from({ length: 160 }, (_, n) => `word${n}`).join(' ');

beforeAll(async () => {
  test = await createTestApp();
  anonymous = new TestClient(test.app);
  const { db } = test.ctx;
  const author = await buildUser(db, { displayName: 'Wren Abernathy', handle: 'wren_a' });
  const make = async (key: string, title: string, text: string) => {
    const manuscript = await buildManuscript(
      db,
      author,
      { visibility: 'public', title },
      `<h1 id="h">Start</h1><p id="p">${text}</p>`,
    );
    ids[key] = manuscript.id;
  };
  await make('phraseInText', 'Harbour Notes', `${filler} and the copper kettle sang all night.`);
  await make('phraseInTitle', 'The Copper Kettle', 'Rain on the roof.');
  await make('wordsApart', 'Pans', 'A kettle on the stove, copper pans on the wall.');
  await make('neither', 'Fog', 'Nothing of the sort.');
});
afterAll(async () => test?.close());

async function find(body: Record<string, unknown>) {
  const response = await anonymous.post('/discover/', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DiscoverResponse;
}

describe('Discover query paths', () => {
  it('finds a phrase exactly where the whole-document check finds it', async () => {
    const q = '"copper kettle"';
    const result = await find({ q });
    const found = result.page.items.map((item) => item.id).sort((a, b) => a - b);
    const expected = (
      (await test.ctx.db.execute(sql`
        select manuscript_id as id from manuscript_search
        where document @@ websearch_to_tsquery('english', margins_fold(${q}))
        order by 1`)) as unknown as { rows: Array<{ id: number }> }
    ).rows.map((row) => row.id);
    expect(found).toEqual(expected);
    expect(found).toEqual([ids.phraseInText!, ids.phraseInTitle!].sort((a, b) => a - b));
    expect(result.total).toBe(2);
    expect(result.total_capped).toBe(false);
    // The title holding the phrase ranks above the text holding it.
    expect(result.page.items[0]!.id).toBe(ids.phraseInTitle);
  });

  it('excludes a phrase, and only the phrase', async () => {
    const result = await find({ q: 'kettle -"copper kettle"' });
    const found = result.page.items.map((item) => item.id);
    expect(found).toContain(ids.wordsApart);
    expect(found).not.toContain(ids.phraseInText);
  });

  it('highlights a match far into the opening', async () => {
    const result = await find({ q: '"copper kettle"' });
    const item = result.page.items.find((entry) => entry.id === ids.phraseInText)!;
    const matched = item.snippet
      .filter((part) => part.match)
      .map((part) => part.text.toLowerCase());
    expect(matched).toEqual(['copper', 'kettle']);
    expect(item.snippet.map((part) => part.text).join('')).not.toContain('word0 ');
  });

  it('still shows the opening where the words matched elsewhere', async () => {
    const result = await find({ q: 'fog' });
    const item = result.page.items.find((entry) => entry.id === ids.neither)!;
    expect(item.snippet.map((part) => part.text).join('')).toContain('Nothing of the sort');
  });
});
