import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, MESSAGES, SESSION_COOKIE } from '@margins/common';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/index.ts';
import { openTestDatabase } from '../db/test-db.ts';
import { TestClient } from '../test/harness.ts';
import { buildUser, loggedInClient, TEST_PASSWORD } from '../test/factories.ts';

let app: FastifyInstance;
let database: Database;
const hits: string[] = [];

/** The real app plus three probe routes, to test the plugin itself. */
beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/margins-test-unused',
  });
  database = await openTestDatabase();
  app = await buildApp(config, database);
  app.post('/__probe/write', async () => {
    hits.push('write');
    return { ok: true };
  });
  app.get('/__probe/state-changing-get', { config: { csrf: true } }, async () => {
    hits.push('state-changing-get');
    return { ok: true };
  });
  app.post('/__probe/exempt', { config: { csrf: false } }, async () => {
    hits.push('exempt');
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('CSRF (double submit)', () => {
  it('sets a readable csrf_token cookie on the first visit', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    const cookie = response.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie!.value.length).toBeGreaterThanOrEqual(20);
    expect(cookie!.httpOnly).toBeFalsy();
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.path).toBe('/');
  });

  it('keeps the token across requests', async () => {
    const client = new TestClient(app);
    await client.get('/healthz');
    const first = client.csrfToken;
    await client.get('/healthz');
    expect(client.csrfToken).toBe(first);
  });

  it('refuses a write without the x-csrf-token header (403)', async () => {
    const client = new TestClient(app);
    const before = hits.length;
    const response = await client.post('/__probe/write', {}, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect(hits.length).toBe(before);
  });

  it('refuses a write with a wrong token (403)', async () => {
    const client = new TestClient(app);
    const response = await client.post(
      '/__probe/write',
      {},
      { csrf: false, headers: { [CSRF_HEADER]: 'x'.repeat(32) } },
    );
    expect(response.statusCode).toBe(403);
  });

  it("refuses another browser's token", async () => {
    const mine = new TestClient(app);
    const theirs = new TestClient(app);
    await mine.get('/healthz');
    await theirs.get('/healthz');
    const response = await mine.post(
      '/__probe/write',
      {},
      { csrf: false, headers: { [CSRF_HEADER]: theirs.csrfToken! } },
    );
    expect(response.statusCode).toBe(403);
  });

  it('refuses a write with no cookie at all, even with a header', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/__probe/write',
      headers: { [CSRF_HEADER]: 'y'.repeat(32) },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
  });

  it('replaces a too-short cookie instead of trusting it', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/__probe/write',
      headers: { cookie: `${CSRF_COOKIE}=abc`, [CSRF_HEADER]: 'abc' },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    const fresh = response.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(fresh?.value).not.toBe('abc');
  });

  it('lets a write with the right header through', async () => {
    const client = new TestClient(app);
    const response = await client.post('/__probe/write', {});
    expect(response.statusCode).toBe(200);
    expect(hits).toContain('write');
  });

  it('checks every unsafe method: PUT, PATCH and DELETE too', async () => {
    const client = new TestClient(app);
    await client.get('/healthz');
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const response = await client.request({ method, url: '/__probe/write', csrf: false });
      expect(response.statusCode, method).toBe(403);
    }
  });

  it('checks a GET that changes state (config.csrf)', async () => {
    const client = new TestClient(app);
    expect((await client.get('/__probe/state-changing-get', { csrf: false })).statusCode).toBe(403);
    expect(hits).not.toContain('state-changing-get');
    expect((await client.get('/__probe/state-changing-get')).statusCode).toBe(200);
  });

  it('lets a route opt out (provider webhooks)', async () => {
    const client = new TestClient(app);
    expect((await client.post('/__probe/exempt', {}, { csrf: false })).statusCode).toBe(200);
  });

  it('protects log in, log out and sign up', async () => {
    const user = await buildUser(database.db);
    const client = new TestClient(app, '10.9.0.1');
    const login = await client.post(
      '/auth/login',
      { email: user.email, password: TEST_PASSWORD },
      { csrf: false },
    );
    expect(login.statusCode).toBe(403);
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    const signup = await client.post(
      '/auth/signup',
      { email: 'csrf@example.test', password: TEST_PASSWORD, display_name: 'C' },
      { csrf: false },
    );
    expect(signup.statusCode).toBe(403);

    // A cross-site form cannot log a user out either.
    const fakeTest = { app, ctx: app.ctx, database, close: async () => {} };
    const { client: loggedIn } = await loggedInClient(fakeTest, user, '10.9.0.2');
    const logout = await loggedIn.post('/auth/logout', undefined, { csrf: false });
    expect(logout.statusCode).toBe(403);
    expect(loggedIn.cookies.has(SESSION_COOKIE)).toBe(true);
    const stillIn = await loggedIn.post('/auth/verify/resend');
    expect(stillIn.statusCode).toBe(200);
  });
});
