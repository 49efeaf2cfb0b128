import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVER_PAGE_SIZE, DISCOVER_RESULT_CAP, type DiscoverResponse } from '@margins/common';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

// A broad word: more matches than Discover ranks (DISCOVER_RESULT_CAP). The manuscripts with
// the word in their title are written last, so they are not among the first matches of the
// text index: they must still come first.
const MANY = DISCOVER_RESULT_CAP + 20;
const TITLED = 5;

let test: TestApp;
let anonymous: TestClient;

beforeAll(async () => {
  test = await createTestApp();
  anonymous = new TestClient(test.app);
  const { db } = test.ctx;
  const author = await buildUser(db, { displayName: 'Ines Duarte', handle: 'ines_d' });
  await db.execute(sql`
    insert into manuscripts (user_id, title, visibility, inking)
    select ${author.id}, case when n > ${MANY - TITLED} then 'The Lantern ' || n else 'Book ' || n end,
           'public', false
    from generate_series(1, ${MANY}::integer) as n`);
  await db.execute(sql`
    insert into manuscript_versions (manuscript_id, number, source_format, file_name, html, toc, words)
    select id, 1, 'html', 'a.html', '<p id="p1">A lantern swung over the quay.</p>', '[]'::jsonb, 6
    from manuscripts`);
  await db.execute(sql`
    update manuscripts m set current_version_id = v.id
    from manuscript_versions v where v.manuscript_id = m.id`);
  // A word in a few titles and in a few other texts: both kinds are counted, once each.
  for (const [title, text] of <Array<[string, string]>>[
    ['Harbour Lights', 'Gulls over the harbour wall.'],
    ['The Harbour Master', 'He kept the harbour.'],
    ['Harbour', 'Nothing else.'],
    ['Tides', 'The harbour froze.'],
    ['Nets', 'A harbour town.'],
    ['Quays', 'Boats in the harbour.'],
    ['Salt', 'Harbour lights at dusk.'],
  ]) {
    await buildManuscript(db, author, { title, visibility: 'public' }, `<p id="p1">${text}</p>`);
  }
}, 300_000);
afterAll(async () => test?.close());

async function find(body: Record<string, unknown>) {
  const response = await anonymous.post('/discover/', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DiscoverResponse;
}

describe('POST /discover/ with more matches than it ranks', () => {
  it('counts up to the cap, says so, and still ranks the title matches first', async () => {
    const result = await find({ q: 'lantern' });
    expect(result.total).toBe(DISCOVER_RESULT_CAP);
    expect(result.total_capped).toBe(true);
    expect(result.page.last_page).toBe(DISCOVER_RESULT_CAP / DISCOVER_PAGE_SIZE);
    const top = result.page.items.slice(0, TITLED).map((item) => item.title);
    expect(top.every((title) => title.startsWith('The Lantern'))).toBe(true);
    const counted = result.facets.categories.reduce((sum, entry) => sum + entry.count, 0);
    expect(counted).toBeLessThanOrEqual(DISCOVER_RESULT_CAP);
  });

  it('answers the last page for a page past the capped ones', async () => {
    const result = await find({ q: 'lantern', page: 70 });
    expect(result.page.current).toBe(DISCOVER_RESULT_CAP / DISCOVER_PAGE_SIZE);
    expect(result.page.items.length).toBe(DISCOVER_PAGE_SIZE);
  });

  it('counts a word in titles and in other texts exactly, the titles first', async () => {
    const result = await find({ q: 'harbour' });
    expect(result.total).toBe(7);
    expect(result.total_capped).toBe(false);
    expect(new Set(result.page.items.map((item) => item.title)).size).toBe(7);
    const top = result.page.items.slice(0, 3).map((item) => item.title);
    expect(top.sort()).toEqual(['Harbour', 'Harbour Lights', 'The Harbour Master']);
  });

  it('counts exactly below the cap', async () => {
    const result = await find({ q: `"lantern ${MANY}"` });
    expect(result.page.items[0]!.title).toBe(`The Lantern ${MANY}`);
    expect(result.total).toBeGreaterThanOrEqual(1);
    expect(result.total).toBeLessThanOrEqual(TITLED);
    expect(result.total_capped).toBe(false);
  });
});
