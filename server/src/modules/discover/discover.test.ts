import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, MESSAGES, type DiscoverResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildGenres, buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { sessionClient } from '../comments/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

let test: TestApp;
let anonymous: TestClient;
const ids: Record<string, number> = {};
let fantasy: number;
let mystery: number;
let author: Awaited<ReturnType<typeof buildUser>>;

const paragraph = (text: string) => `<h1 id="h">Start</h1><p id="p">${text}</p>`;

beforeAll(async () => {
  test = await createTestApp();
  anonymous = new TestClient(test.app);
  const { db } = test.ctx;
  const genres = await buildGenres(db, 'fiction', ['Fantasy', 'Mystery']);
  fantasy = genres[0]!.id;
  mystery = genres[1]!.id;
  author = await buildUser(db, { displayName: 'Éloïse Fairweather', handle: 'eloise_f' });
  const other = await buildUser(db, { displayName: 'Tomas Reed', handle: 'treed' });
  const make = async (
    key: string,
    owner: typeof author,
    values: Partial<typeof schema.manuscripts.$inferInsert>,
    text = 'An ordinary story about ordinary things.',
    genreIds: number[] = [],
  ) => {
    const manuscript = await buildManuscript(
      db,
      owner,
      { visibility: 'public', ...values },
      paragraph(text),
    );
    for (const genreId of genreIds) {
      await db.insert(schema.manuscriptGenres).values({ manuscriptId: manuscript.id, genreId });
    }
    ids[key] = manuscript.id;
  };
  await make('dragonTitle', author, { title: 'The Dragon of Maren Hollow' }, 'Rain.', [fantasy]);
  await make('dragonText', other, { title: 'Salt Roads' }, 'A dragon sleeps under the bridge.', [
    mystery,
  ]);
  await make('poems', other, { title: 'Small Hours', category: 'poetry' }, 'Tides and lamps.');
  await make('members', other, { title: 'Members Dragon', visibility: 'logged_in' });
  await make('private', author, { title: 'Private Dragon', visibility: 'private' });
  await make('restricted', author, { title: 'Restricted Dragon', visibility: 'restricted' });
  await make('archived', author, { title: 'Archived Dragon', archivedAt: new Date() });
  await make('flagged', author, { title: 'Flagged Dragon', moderationFlag: true });
  await make('mature', other, { title: 'Mature Dragon', nsfw: true });
  await make('inking', other, { title: 'Inking Dragon' });
  await db
    .update(schema.manuscripts)
    .set({ inking: true })
    .where(eq(schema.manuscripts.id, ids.inking!));
});
afterAll(async () => test?.close());

async function find(client: TestClient, body: Record<string, unknown>) {
  const response = await client.post('/discover/', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DiscoverResponse;
}
const titles = (result: DiscoverResponse) => result.page.items.map((item) => item.title);

describe('POST /discover/', () => {
  it('ranks a title match above a text match, and shows where the words matched', async () => {
    const result = await find(anonymous, { q: 'dragon' });
    expect(titles(result)).toEqual(['The Dragon of Maren Hollow', 'Salt Roads']);
    const textHit = result.page.items[1]!;
    expect(textHit.snippet.some((part) => part.match && /dragon/i.test(part.text))).toBe(true);
  });

  it('finds a misspelt title, and accents meet their plain letters', async () => {
    expect(titles(await find(anonymous, { q: 'dargon' }))).toContain('The Dragon of Maren Hollow');
    expect(titles(await find(anonymous, { q: 'eloise' }))).toContain('The Dragon of Maren Hollow');
    expect(titles(await find(anonymous, { q: 'Éloïse' }))).toContain('The Dragon of Maren Hollow');
  });

  it('takes phrases, OR and exclusions', async () => {
    expect(titles(await find(anonymous, { q: '"maren hollow"' }))).toEqual([
      'The Dragon of Maren Hollow',
    ]);
    // Quoted, the words must be there in that order: a title only like them is not found.
    expect(titles(await find(anonymous, { q: '"dragon maren"' }))).toEqual([]);
    expect(titles(await find(anonymous, { q: 'dragon -bridge' }))).toEqual([
      'The Dragon of Maren Hollow',
    ]);
    expect(titles(await find(anonymous, { q: 'tides or maren' })).sort()).toEqual([
      'Small Hours',
      'The Dragon of Maren Hollow',
    ]);
  });

  it('filters by category and genres, alone and together, with facet counts', async () => {
    const poetry = await find(anonymous, { fs: 'poetry' });
    expect(titles(poetry)).toEqual(['Small Hours']);
    expect(titles(await find(anonymous, { genre_ids: [mystery] }))).toEqual(['Salt Roads']);
    expect(titles(await find(anonymous, { fs: 'poetry', genre_ids: [mystery] }))).toEqual([]);
    const all = await find(anonymous, { q: 'dragon' });
    expect(all.facets.genres).toEqual(
      expect.arrayContaining([
        { id: fantasy, count: 1 },
        { id: mystery, count: 1 },
      ]),
    );
    expect(all.facets.categories).toEqual([{ category: 'fiction', count: 2 }]);
  });

  it('never shows what the viewer may not find', async () => {
    const hidden = ['private', 'restricted', 'archived', 'inking'];
    const everyone = await find(anonymous, { q: 'dragon' });
    for (const key of [...hidden, 'members', 'flagged', 'mature']) {
      expect(everyone.page.items.map((item) => item.id)).not.toContain(ids[key]);
    }
    const { client: reader } = await sessionClient(test);
    const loggedIn = (await find(reader, { q: 'dragon' })).page.items.map((item) => item.id);
    expect(loggedIn).toContain(ids.members);
    for (const key of [...hidden, 'flagged', 'mature']) expect(loggedIn).not.toContain(ids[key]);

    const owner = await sessionClient(test, author);
    const own = (await find(owner.client, { q: 'dragon' })).page.items.map((item) => item.id);
    expect(own).toContain(ids.flagged);
    for (const key of hidden) expect(own).not.toContain(ids[key]);

    const matureReader = await sessionClient(
      test,
      await buildUser(test.ctx.db, { showMature: true, certified18At: new Date() }),
    );
    const mature = (await find(matureReader.client, { q: 'dragon' })).page.items;
    expect(mature.find((item) => item.id === ids.mature)?.nsfw).toBe(true);
  });

  it('follows edits and archiving', async () => {
    const { db } = test.ctx;
    await db
      .update(schema.manuscripts)
      .set({ title: 'Lighthouse Ledger' })
      .where(eq(schema.manuscripts.id, ids.poems!));
    expect(titles(await find(anonymous, { q: 'lighthouse' }))).toEqual(['Lighthouse Ledger']);
    await db
      .update(schema.manuscripts)
      .set({ archivedAt: new Date() })
      .where(eq(schema.manuscripts.id, ids.poems!));
    expect(titles(await find(anonymous, { q: 'lighthouse' }))).toEqual([]);
  });

  it('sorts by newest, most read and most commented', async () => {
    const { user } = await sessionClient(test);
    await test.ctx.db
      .insert(schema.bookmarks)
      .values({ userId: user.id, manuscriptId: ids.dragonText! });
    const mostRead = await find(anonymous, { sort: 'most_read' });
    expect(mostRead.page.items[0]!.id).toBe(ids.dragonText);
    expect(mostRead.page.items[0]!.read_count).toBe(1);
    const newest = await find(anonymous, { sort: 'newest' });
    const created = newest.page.items.map((item) => Date.parse(item.created));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('pages: a page past the end answers the last page; page 0 or a huge page is a 400', async () => {
    const pastEnd = await find(anonymous, { page: 500 });
    expect(pastEnd.page.current).toBe(pastEnd.page.last_page);
    expect(pastEnd.page.items.length).toBeGreaterThan(0);
    for (const page of [0, -1, 1e12, 'x']) {
      const response = await anonymous.post('/discover/', { page });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.page).toBeDefined();
    }
    expect((await find(anonymous, {})).page).toMatchObject({ first_page: 1, current: 1 });
  });

  it('answers hostile queries without a 500', async () => {
    for (const q of ["'", '\\', '&|!', '"unclosed', '-', 'OR', '(((', ':*', '🐉 drágón', '%_']) {
      const response = await anonymous.post('/discover/', { q });
      expect(response.statusCode, q).toBe(200);
    }
    const long = await anonymous.post('/discover/', { q: 'x'.repeat(10_000) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.q).toEqual([MESSAGES.discoverQueryTooLong]);
    const badGenres = await anonymous.post('/discover/', { genre_ids: ['1; drop table users'] });
    expect(badGenres.statusCode).toBe(400);
  });
});

describe('browsing without words', () => {
  it('reads the page fresh and keeps the counts a while; owners of a flagged manuscript count afresh', async () => {
    const { client: member, user } = await sessionClient(test);
    const before = await find(member, { sort: 'newest' });
    const fresh = await buildManuscript(test.ctx.db, author, {
      title: 'Brand New Lantern',
      visibility: 'public',
    });
    const after = await find(member, { sort: 'newest' });
    expect(after.page.items[0]!.id).toBe(fresh.id);
    expect(after.total).toBe(before.total);
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ moderationFlag: true })
      .where(eq(schema.manuscripts.id, fresh.id));
    const owner = await sessionClient(test, author);
    const own = await find(owner.client, { sort: 'newest' });
    expect(own.page.items[0]!.id).toBe(fresh.id);
    expect(own.total).toBeGreaterThan(before.total);
    expect(user.id).not.toBe(author.id);
  });
});

describe('GET /discover/', () => {
  it('renders the page with the search of its URL', async () => {
    const page = await anonymous.get(`/discover/?q=dragon&genre_ids=${fantasy}`, {
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"page":"discover"');
    expect(page.body).toContain('The Dragon of Maren Hollow');
    const json = await anonymous.get(`/discover/?q=dragon&genre_ids=${fantasy}`);
    expect(titles(json.json() as DiscoverResponse)).toEqual(['The Dragon of Maren Hollow']);
    expect((await anonymous.get('/discover/?page=0')).statusCode).toBe(400);
    const badPage = await anonymous.get('/discover/?page=0', { headers: { accept: 'text/html' } });
    expect(badPage.statusCode).toBe(200);
  });

  it('refuses a genre id past PostgreSQL integer, or spelt otherwise, in the URL and the body', async () => {
    for (const id of ['2147483648', '9007199254740992', '-1', '1e3', '0x10']) {
      const json = await anonymous.get(`/discover/?genre_ids=${fantasy},${id}`);
      expect(json.statusCode, id).toBe(400);
      expect(json.json().errors.genre_ids, id).toEqual([INPUT_MESSAGES.badId]);
      // The page shows the search without the filter, and says why.
      const page = await anonymous.get(`/discover/?genre_ids=${id}`, {
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode, id).toBe(200);
      expect(page.body).toContain(INPUT_MESSAGES.badId);
      const asJson = /^-?\d+$/.test(id) ? Number(id) : id;
      const posted = await anonymous.post('/discover/', { genre_ids: [asJson] });
      expect(posted.statusCode, id).toBe(400);
    }
    expect((await anonymous.get('/discover/?genre_ids=2147483647')).statusCode).toBe(200);
  });
});

describe("a filtered search's facets", () => {
  it('count its words alone, kept for the next filtered search with them, for each viewer', async () => {
    const first = await find(anonymous, { q: 'dragon', genre_ids: [mystery] });
    expect(titles(first)).toEqual(['Salt Roads']);
    expect(first.facets.genres).toEqual(
      expect.arrayContaining([
        { id: fantasy, count: 1 },
        { id: mystery, count: 1 },
      ]),
    );
    const next = await find(anonymous, { q: 'dragon', genre_ids: [fantasy] });
    expect(titles(next)).toEqual(['The Dragon of Maren Hollow']);
    expect(next.facets).toEqual(first.facets);
    // The owner of a flagged manuscript finds it: their facets are their own.
    const owner = await sessionClient(test, author);
    const own = await find(owner.client, { q: 'dragon', genre_ids: [fantasy] });
    const counted = (result: DiscoverResponse) =>
      result.facets.categories.reduce((sum, entry) => sum + entry.count, 0);
    expect(counted(own)).toBeGreaterThan(counted(next));
  });
});
