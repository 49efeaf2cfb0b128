import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildGenres, buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { CERTIFY_FIRST_MESSAGE } from './service.ts';
import { clientFor } from './testing.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const userRow = async (id: number) => {
  const [row] = await test.ctx.db.select().from(schema.users).where(eq(schema.users.id, id));
  return row!;
};
const pageConfigOf = (html: string) => {
  const match = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match![1]!) as { page: string; data: Record<string, unknown> };
};
const anonymous = () => new TestClient(test.app);

describe('GET /profile/', () => {
  it('answers the profile bundle as JSON, with the caller’s own e-mail', async () => {
    const [fantasy] = await buildGenres(test.ctx.db, 'bundle-cat', ['Bundle A', 'Bundle B']);
    const { client, user } = await clientFor(test);
    await test.ctx.db.insert(schema.userGenres).values({ userId: user.id, genreId: fantasy!.id });

    const response = await client.get('/profile/');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ id: user.id, email: user.email, handle: user.handle });
    expect(body.selected_genre_ids).toEqual([fantasy!.id]);
    expect(body.categories).toContainEqual({
      category: 'bundle-cat',
      genres: [
        { genre_id: fantasy!.id, name: 'Bundle A' },
        { genre_id: fantasy!.id + 1, name: 'Bundle B' },
      ],
    });
    expect(body.notification_preferences).toEqual({
      invited_to_document: ['email'],
      received_approval: ['email'],
      reader_needs_approval: ['email'],
      reminders: ['email'],
      comment_replies: ['email'],
    });
    expect(body.invite_codes).toEqual([]);
    expect(body.invites_remaining).toBe(test.ctx.config.platformInviteLimit);
  });

  it('renders the current-profile page with the same bundle as page data', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get('/profile/', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const config = pageConfigOf(response.body);
    expect(config.page).toBe('current-profile');
    expect(config.data).toMatchObject({
      user: { id: user.id },
      selected_genre_ids: [],
      invites_remaining: test.ctx.config.platformInviteLimit,
    });
    expect(config.data).not.toHaveProperty('tab');
  });

  it('sends a logged-out browser to the login page and back', async () => {
    const response = await anonymous().get('/profile/', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login?next=/profile/');
  });

  it('answers 401 to a logged-out JSON call', async () => {
    const response = await anonymous().get('/profile/');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: MESSAGES.notLoggedIn });
  });
});

describe('GET /profile/certify18 and POST /profile/mature', () => {
  it('certifies once and answers {certified_18: true}', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get('/profile/certify18');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ certified_18: true });
    const first = (await userRow(user.id)).certified18At;
    expect(first).toBeInstanceOf(Date);
    await client.get('/profile/certify18');
    expect((await userRow(user.id)).certified18At).toEqual(first);
  });

  it('needs the CSRF header even though it is a GET, and a login', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get('/profile/certify18', { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect((await userRow(user.id)).certified18At).toBeNull();

    const loggedOut = await anonymous().get('/profile/certify18');
    expect(loggedOut.statusCode).toBe(401);
  });

  it('turns mature content on only after certifying, and off any time', async () => {
    const { client, user } = await clientFor(test);
    const refused = await client.post('/profile/mature', { show_mature: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: MESSAGES.checkFormFields,
      errors: { show_mature: [CERTIFY_FIRST_MESSAGE] },
    });

    const certified = await clientFor(
      test,
      await buildUser(test.ctx.db, { certified18At: new Date() }),
    );
    const on = await certified.client.post('/profile/mature', { show_mature: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ show_mature: true });
    expect((await userRow(certified.user.id)).showMature).toBe(true);

    const off = await client.post('/profile/mature', { show_mature: false });
    expect(off.json()).toEqual({ show_mature: false });
    expect((await userRow(user.id)).showMature).toBe(false);
  });

  it('validates the body and needs a login and the CSRF header', async () => {
    const { client } = await clientFor(test);
    const bad = await client.post('/profile/mature', { show_mature: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['show_mature']);
    expect((await anonymous().post('/profile/mature', { show_mature: false })).statusCode).toBe(
      401,
    );
    const noCsrf = await client.post('/profile/mature', { show_mature: false }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });
});

describe('GET /profile/lookup', () => {
  it('matches handle or display-name prefixes, finished sign-ups only, never the caller', async () => {
    const { client, user } = await clientFor(
      test,
      await buildUser(test.ctx.db, { handle: 'lookup_me', displayName: 'Lookup Caller' }),
    );
    const byHandle = await buildUser(test.ctx.db, { handle: 'Lookup_Anna', displayName: 'Anna' });
    const byName = await buildUser(test.ctx.db, { handle: 'zzz_bo', displayName: 'lookup Bo' });
    await buildUser(test.ctx.db, { handle: 'lookup_new', signupCompletedAt: null });
    await buildUser(test.ctx.db, { handle: 'xlookup', displayName: 'Not A Prefix lookup' });

    const response = await client.get('/profile/lookup?q=LOOKUP');
    expect(response.statusCode).toBe(200);
    const ids = response.json().users.map((found: { id: number }) => found.id);
    expect(ids.sort()).toEqual([byHandle.id, byName.id].sort());
    expect(ids).not.toContain(user.id);
    expect(response.json().users).toContainEqual({
      id: byHandle.id,
      handle: 'Lookup_Anna',
      display_name: 'Anna',
    });
  });

  it('never shows or matches e-mail addresses', async () => {
    const { client } = await clientFor(test);
    const target = await buildUser(test.ctx.db, {
      email: 'secretmail@example.test',
      handle: 'secret_handle',
    });
    const byEmail = await client.get('/profile/lookup?q=secretmail');
    expect(byEmail.json()).toEqual({ users: [] });
    const byHandle = await client.get('/profile/lookup?q=secret_');
    expect(byHandle.json()).toEqual({
      users: [{ id: target.id, handle: 'secret_handle', display_name: target.displayName }],
    });
    expect(byHandle.body).not.toContain('@');
  });

  it('treats LIKE wildcards as text and answers at most 10', async () => {
    const { client } = await clientFor(test);
    for (let i = 0; i < 12; i++) await buildUser(test.ctx.db, { handle: `many_${i}x` });
    const many = await client.get('/profile/lookup?q=many_');
    expect(many.json().users).toHaveLength(10);
    const wildcard = await client.get(`/profile/lookup?q=${encodeURIComponent('%')}`);
    expect(wildcard.json()).toEqual({ users: [] });
  });

  it('needs a login and a q', async () => {
    expect((await anonymous().get('/profile/lookup?q=ab')).statusCode).toBe(401);
    const { client } = await clientFor(test);
    const missing = await client.get('/profile/lookup');
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(['q']);
  });
});

describe('GET /profile/get/:user_id', () => {
  it('answers the public profile and interests, without an e-mail', async () => {
    const [genre] = await buildGenres(test.ctx.db, 'public-cat', ['Public Genre']);
    const author = await buildUser(test.ctx.db, { about: 'Hello', discord: 'ada#1' });
    await test.ctx.db.insert(schema.userGenres).values({ userId: author.id, genreId: genre!.id });
    const { client } = await clientFor(test);
    const response = await client.get(`/profile/get/${author.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ id: author.id, about: 'Hello', discord: 'ada#1' });
    expect(body.user).not.toHaveProperty('email');
    expect(body.user).not.toHaveProperty('role');
    expect(response.body).not.toContain(author.email);
    expect(body.interests).toEqual([{ id: genre!.id, name: 'Public Genre' }]);

    const anonymousView = await anonymous().get(`/profile/get/${author.id}`);
    expect(anonymousView.statusCode).toBe(200);
    expect(anonymousView.body).not.toContain(author.email);
  });

  it('renders the public-profile page for a browser', async () => {
    const author = await buildUser(test.ctx.db);
    const response = await anonymous().get(`/profile/get/${author.id}`, {
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    const config = pageConfigOf(response.body);
    expect(config.page).toBe('public-profile');
    expect(config.data).toEqual({
      user: expect.objectContaining({ id: author.id }),
      interests: [],
      // The manuscripts a visitor may open (public-manuscripts.test.ts): none yet.
      manuscripts: [],
    });
    expect(response.body).not.toContain(author.email);
  });

  it('answers 404 for unknown users and unfinished sign-ups', async () => {
    const unfinished = await buildUser(test.ctx.db, { signupCompletedAt: null });
    for (const id of [unfinished.id, 999_999, 2_147_483_647]) {
      const json = await anonymous().get(`/profile/get/${id}`);
      expect(json.statusCode).toBe(404);
      expect(json.json()).toEqual({ error: MESSAGES.notFound });
    }
    const page = await anonymous().get(`/profile/get/${unfinished.id}`, {
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
    expect(pageConfigOf(page.body).page).toBe('not-found');
  });

  it('answers 400 for an id that is not a database id', async () => {
    for (const id of ['abc', '0', '99999999999']) {
      const response = await anonymous().get(`/profile/get/${id}`);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors)).toEqual(['user_id']);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the profile, genre and media routes', async () => {
    const response = await anonymous().get('/api/openapi.json');
    const paths = response.json().paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/profile/']!).sort()).toEqual(['get', 'post']);
    const post = paths['/profile/']!.post as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(post.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    for (const path of [
      '/profile/notification/preferences',
      '/profile/generate/invite',
      '/profile/certify18',
      '/profile/mature',
      '/profile/lookup',
      '/profile/get/{user_id}',
      '/profile/genres',
      '/profile/genres/{genre_id}',
      '/profile/user/{user_id}/genres',
      '/media/{media_id}',
    ]) {
      expect(paths, path).toHaveProperty([path]);
    }
  });
});
