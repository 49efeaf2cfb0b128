import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from './index.ts';
import { buildUser } from '../test/factories.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

async function searchRow(id: number) {
  const [row] = await test.ctx.db
    .select()
    .from(schema.manuscriptSearch)
    .where(eq(schema.manuscriptSearch.manuscriptId, id));
  return row;
}

describe('the search row follows every change in the same transaction', () => {
  it('is written with the manuscript and follows title, draft, visibility, author and archive', async () => {
    const author = await buildUser(test.ctx.db, { displayName: 'Éloïse Marchetti' });
    const manuscript = await buildManuscript(
      test.ctx.db,
      author,
      { title: 'The Dragon of Maren Hollow', visibility: 'public' },
      '<h1 id="a">One</h1><p id="b">Lanterns &amp; ledgers under the river bridge.</p>',
    );
    const row = await searchRow(manuscript.id);
    expect(row).toMatchObject({
      titleKey: 'the dragon of maren hollow',
      listed: true,
      visibility: 'public',
    });
    expect(row!.authorKey).toContain('eloise marchetti');
    expect(row!.opening).toContain('Lanterns & ledgers under the river bridge.');
    const matches = await test.ctx.db.execute(
      sql`select manuscript_id from manuscript_search
          where document @@ websearch_to_tsquery('english', margins_fold('eloise'))`,
    );
    expect(JSON.stringify(matches)).toContain(String(manuscript.id));

    await test.ctx.db
      .update(schema.manuscripts)
      .set({ title: 'Salt Roads', visibility: 'logged_in' })
      .where(eq(schema.manuscripts.id, manuscript.id));
    expect(await searchRow(manuscript.id)).toMatchObject({
      titleKey: 'salt roads',
      visibility: 'logged_in',
    });
    // The opening is kept when the draft did not change.
    expect((await searchRow(manuscript.id))!.opening).toContain('Lanterns');

    await test.ctx.db
      .update(schema.users)
      .set({ displayName: 'Ada Quill' })
      .where(eq(schema.users.id, author.id));
    expect((await searchRow(manuscript.id))!.authorKey).toContain('ada quill');

    await test.ctx.db
      .update(schema.manuscripts)
      .set({ archivedAt: new Date() })
      .where(eq(schema.manuscripts.id, manuscript.id));
    expect((await searchRow(manuscript.id))!.listed).toBe(false);
  });
});
