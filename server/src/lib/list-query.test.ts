import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_LIST_FIELD, type Manuscript } from '@margins/common';
import type { UserRow } from '../context.ts';
import { schema } from '../db/index.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { buildUser, loggedInClient } from '../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { escapeLike, pageOfItems, runList, type ListColumns } from './list-query.ts';

// The list contract against a real database: the dashboard's manuscripts list, and the helper
// itself on hostile input (issue 9 item 3).

let test: TestApp;
let author: UserRow;
let client: TestClient;
const TITLES = ['Alpha', 'Beta 100%', 'Gamma_ray', 'Delta', "O'Brien; drop table users; --"];

beforeAll(async () => {
  test = await createTestApp();
  author = await buildUser(test.ctx.db);
  for (const [index, title] of TITLES.entries()) {
    await buildManuscript(test.ctx.db, author, {
      title,
      category: index % 2 ? 'poetry' : 'fiction',
      createdAt: new Date(Date.UTC(2026, 0, index + 1)),
    });
  }
  ({ client } = await loggedInClient(test, author));
});
afterAll(async () => {
  await test?.close();
});

const titlesOf = (body: { manuscripts: Manuscript[] }) => body.manuscripts.map((m) => m.title);
const list = (query: string) => client.get(`/user/current/manuscripts${query}`);

describe('GET /user/current/manuscripts with the list contract', () => {
  it('keeps its answer for existing clients, with the page info alongside', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(titlesOf(body)).toEqual([...TITLES].reverse());
    expect(body.total).toBe(5);
    expect(body.page).toMatchObject({ current: 1, last_page: 1, prev: null, next: null });
  });

  it('pages, sorts and filters', async () => {
    const second = (await list('?per_page=2&page=2&sort=title&order=asc')).json();
    expect(titlesOf(second)).toEqual(['Delta', 'Gamma_ray']);
    expect(second.page).toMatchObject({ current: 2, last_page: 3, prev: 1, next: 3 });
    expect(second.page.iter_pages).toEqual([1, 2, 3]);
    const poetry = (await list('?category=poetry&sort=created&order=asc')).json();
    expect(titlesOf(poetry)).toEqual(['Beta 100%', 'Delta']);
    expect(poetry.total).toBe(2);
  });

  it('answers the last page for a page past it', async () => {
    const body = (await list('?per_page=2&page=9999')).json();
    expect(body.page.current).toBe(3);
    expect(titlesOf(body)).toEqual(['Alpha']);
  });

  it('searches as plain text: % _ and quotes match only themselves', async () => {
    expect(titlesOf((await list('?q=100%25')).json())).toEqual(['Beta 100%']);
    expect(titlesOf((await list('?q=a_r')).json())).toEqual(['Gamma_ray']);
    expect(titlesOf((await list('?q=%25')).json())).toEqual(['Beta 100%']);
    const injection = await list(`?q=${encodeURIComponent("' OR 1=1 --")}`);
    expect(injection.statusCode).toBe(200);
    expect(injection.json().total).toBe(0);
    expect(titlesOf((await list(`?q=${encodeURIComponent("o'brien; drop")}`)).json())).toEqual([
      TITLES[4],
    ]);
    const [users] = await test.ctx.db.select({ total: count() }).from(schema.users);
    expect(users!.total).toBeGreaterThan(0);
  });

  it('refuses unknown fields, bad sorts and bad pages with a 400 naming the field', async () => {
    const unknown = await list('?user_id=1');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({ user_id: [UNKNOWN_LIST_FIELD] });
    const sort = await list('?sort=password_hash');
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors.sort).toBeDefined();
    for (const page of ['0', '-3', '1e308', '99999999999999999999', 'abc']) {
      const bad = await list(`?page=${page}`);
      expect(bad.statusCode, page).toBe(400);
      expect(bad.json().errors.page, page).toBeDefined();
    }
    expect((await list('?per_page=100000')).statusCode).toBe(400);
  });

  it('still sends a browser to the dashboard, whatever its query', async () => {
    const response = await client.get('/user/current/manuscripts?utm_source=mail', {
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('dashboard');
  });

  it('asks a stranger to log in before it reads the query', async () => {
    const response = await new TestClient(test.app).get('/user/current/manuscripts?page=0');
    expect(response.statusCode).toBe(401);
  });
});

describe('runList and pageOfItems', () => {
  const manuscripts = schema.manuscripts;
  type Query = { page: number; per_page: number; sort: 'title'; order: 'asc' | 'desc'; q?: string };
  const columns: ListColumns<Query> = {
    sort: { title: manuscripts.title },
    tieBreaker: manuscripts.id,
    search: [manuscripts.title],
  };
  const run = (query: Query) =>
    runList(query, columns, {
      count: async (where) => {
        const [row] = await test.ctx.db
          .select({ total: count() })
          .from(manuscripts)
          .where(where ?? eq(manuscripts.userId, author.id));
        return row?.total ?? 0;
      },
      rows: ({ where, orderBy, limit, offset }) =>
        test.ctx.db
          .select({ title: manuscripts.title })
          .from(manuscripts)
          .where(where ?? eq(manuscripts.userId, author.id))
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
    });

  it('never fetches rows for an empty result, and pages a huge page number to the last', async () => {
    const none = await run({ page: 1, per_page: 10, sort: 'title', order: 'asc', q: 'zzz' });
    expect(none).toMatchObject({ items: [], total: 0, page: { current: 1, last_page: 1 } });
    const last = await run({ page: 100_000, per_page: 2, sort: 'title', order: 'desc' });
    expect(last.page.current).toBe(3);
  });

  it('escapes LIKE patterns', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('cuts an in-memory list the same way', () => {
    const items = Array.from({ length: 7 }, (_, index) => index);
    expect(pageOfItems(items, { page: 9, per_page: 3, sort: 'x', order: 'asc' })).toMatchObject({
      items: [6],
      total: 7,
      page: { current: 3, last_page: 3 },
    });
  });
});
