import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildGenres, buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { clientFor } from '../profile/testing.ts';
import { GENRE_NOT_FOUND, listCatalogue } from './service.ts';

let test: TestApp;
let fantasy: number;
let mystery: number;
let sonnet: number;
beforeAll(async () => {
  test = await createTestApp();
  // Inserted out of order: the catalogue orders categories by position, genres by name.
  const [poetry] = await test.ctx.db
    .insert(schema.genreCategories)
    .values({ name: 'poetry', position: 2 })
    .returning();
  const [sonnetRow] = await test.ctx.db
    .insert(schema.genres)
    .values({ categoryId: poetry!.id, name: 'Sonnet' })
    .returning();
  sonnet = sonnetRow!.id;
  const fiction = await buildGenres(test.ctx.db, 'fiction', ['Mystery', 'Fantasy']);
  mystery = fiction[0]!.id;
  fantasy = fiction[1]!.id;
  await test.ctx.db.insert(schema.genreCategories).values({ name: 'empty', position: 5 });
});
afterAll(async () => test?.close());

const selectedOf = async (userId: number) =>
  (
    await test.ctx.db
      .select({ genreId: schema.userGenres.genreId })
      .from(schema.userGenres)
      .where(eq(schema.userGenres.userId, userId))
  )
    .map((row) => row.genreId)
    .sort((a, b) => a - b);

describe('listCatalogue', () => {
  it('groups genres by category in display order', async () => {
    expect(await listCatalogue(test.ctx.db)).toEqual([
      {
        category: 'fiction',
        genres: [
          { genre_id: fantasy, name: 'Fantasy' },
          { genre_id: mystery, name: 'Mystery' },
        ],
      },
      { category: 'poetry', genres: [{ genre_id: sonnet, name: 'Sonnet' }] },
      { category: 'empty', genres: [] },
    ]);
  });
});

describe('GET /profile/genres', () => {
  it('answers the catalogue and the caller’s selection', async () => {
    const { client, user } = await clientFor(test);
    await test.ctx.db.insert(schema.userGenres).values({ userId: user.id, genreId: sonnet });
    const response = await client.get('/profile/genres');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      categories: await listCatalogue(test.ctx.db),
      selected_genre_ids: [sonnet],
    });
  });

  it('renders the current-profile page on the genres tab', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get('/profile/genres', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    const json = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(
      response.body,
    )![1]!;
    const config = JSON.parse(json);
    expect(config.page).toBe('current-profile');
    expect(config.data).toMatchObject({
      tab: 'genres',
      user: { id: user.id },
      selected_genre_ids: [],
      categories: await listCatalogue(test.ctx.db),
    });
  });

  it('sends a logged-out browser to log in, and answers 401 to JSON', async () => {
    const page = await new TestClient(test.app).get('/profile/genres', {
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/auth/login?next=/profile/genres');
    const json = await new TestClient(test.app).get('/profile/genres');
    expect(json.statusCode).toBe(401);
    expect(json.json()).toEqual({ error: MESSAGES.notLoggedIn });
  });
});

describe('PUT and DELETE /profile/genres/:genre_id', () => {
  it('adds and removes a genre, each idempotently', async () => {
    const { client, user } = await clientFor(test);
    for (let i = 0; i < 2; i++) {
      const added = await client.put(`/profile/genres/${fantasy}`);
      expect(added.statusCode).toBe(200);
      expect(added.json()).toEqual({ ok: true });
    }
    await client.put(`/profile/genres/${sonnet}`);
    expect(await selectedOf(user.id)).toEqual([fantasy, sonnet].sort((a, b) => a - b));

    for (let i = 0; i < 2; i++) {
      const removed = await client.delete(`/profile/genres/${fantasy}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ ok: true });
    }
    expect(await selectedOf(user.id)).toEqual([sonnet]);
  });

  it('answers 404 for an unknown genre and 400 for a bad id', async () => {
    const { client, user } = await clientFor(test);
    for (const method of ['put', 'delete'] as const) {
      const unknown = await client[method]('/profile/genres/999999');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: GENRE_NOT_FOUND });
      const bad = await client[method]('/profile/genres/fantasy');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().errors)).toEqual(['genre_id']);
    }
    expect(await selectedOf(user.id)).toEqual([]);
  });

  it('changes only the caller’s genres', async () => {
    const alice = await clientFor(test);
    const bob = await clientFor(test);
    await alice.client.put(`/profile/genres/${mystery}`);
    await bob.client.delete(`/profile/genres/${mystery}`);
    await bob.client.put(`/profile/genres/${fantasy}`);
    expect(await selectedOf(alice.user.id)).toEqual([mystery]);
    expect(await selectedOf(bob.user.id)).toEqual([fantasy]);
  });

  it('needs a login and the CSRF header', async () => {
    const anonymous = new TestClient(test.app);
    expect((await anonymous.put(`/profile/genres/${fantasy}`)).statusCode).toBe(401);
    expect((await anonymous.delete(`/profile/genres/${fantasy}`)).statusCode).toBe(401);

    const { client, user } = await clientFor(test);
    const put = await client.put(`/profile/genres/${fantasy}`, undefined, { csrf: false });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect(await selectedOf(user.id)).toEqual([]);

    await client.put(`/profile/genres/${fantasy}`);
    const del = await client.delete(`/profile/genres/${fantasy}`, { csrf: false });
    expect(del.statusCode).toBe(403);
    const [kept] = await test.ctx.db
      .select()
      .from(schema.userGenres)
      .where(and(eq(schema.userGenres.userId, user.id), eq(schema.userGenres.genreId, fantasy)));
    expect(kept).toBeDefined();
  });
});

describe('GET /profile/user/:user_id/genres', () => {
  it('answers anyone a user’s interests by name', async () => {
    const reader = await buildUser(test.ctx.db);
    await test.ctx.db.insert(schema.userGenres).values([
      { userId: reader.id, genreId: sonnet },
      { userId: reader.id, genreId: fantasy },
    ]);
    const response = await new TestClient(test.app).get(`/profile/user/${reader.id}/genres`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      interests: [
        { id: fantasy, name: 'Fantasy' },
        { id: sonnet, name: 'Sonnet' },
      ],
    });
  });

  it('answers an empty list for a user without interests', async () => {
    const reader = await buildUser(test.ctx.db);
    const response = await new TestClient(test.app).get(`/profile/user/${reader.id}/genres`);
    expect(response.json()).toEqual({ interests: [] });
  });

  it('answers 404 for unknown users and unfinished sign-ups', async () => {
    const unfinished = await buildUser(test.ctx.db, { signupCompletedAt: null });
    for (const id of [unfinished.id, 999_999]) {
      const response = await new TestClient(test.app).get(`/profile/user/${id}/genres`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: MESSAGES.notFound });
    }
  });
});
