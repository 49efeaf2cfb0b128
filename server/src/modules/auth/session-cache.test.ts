import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeListenerOf } from '../../db/change-listener.ts';
import { schema } from '../../db/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import { clientFor, personFor } from '../invites/test-helpers.ts';
import { suspendUser } from '../moderation/suspension.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness.ts';
import { sessionCacheOf, type SessionCache } from './session-cache.ts';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
  // The listener starts after ready() without holding it back: wait until it listens.
  await changeListenerOf(test.ctx).start();
  // On PostgreSQL the suite runs with the cache off (sessionCacheOf says why): on here.
  sessionCacheOf(test.ctx).enabled = true;
});
afterAll(async () => {
  await test?.close();
});

/** The session id of a test client (the hash of its cookie's token). */
function sessionIdOf(client: TestClient): string {
  const cookie = decodeURIComponent(client.cookies.get('margins_session')!);
  return hashToken(test.app.unsignCookie(cookie).value!);
}

/**
 * Waits for a change made straight in the database to reach the cache: on PGlite it has when
 * the write returns; on PostgreSQL the notification comes within a round trip (2 s at most here).
 */
async function announced(client: TestClient): Promise<void> {
  const until = Date.now() + 2_000;
  while (sessionCacheOf(test.ctx).get(sessionIdOf(client)) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Two requests: the first reads the session from the database, the second from the cache. */
async function warm(client: TestClient): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await client.get('/profile/')).statusCode).toBe(200);
  expect(sessionCacheOf(test.ctx).get(sessionIdOf(client))).toBeDefined();
}

describe('the session cache', () => {
  it('keeps a session after its first request', async () => {
    const { client, user } = await personFor(test);
    await warm(client);
    expect(sessionCacheOf(test.ctx).get(sessionIdOf(client))?.id).toBe(user.id);
  });

  it('logout: the very next request with the old cookie is refused', async () => {
    const { client } = await personFor(test);
    await warm(client);
    const cookie = client.cookies.get('margins_session')!;
    expect((await client.post('/auth/logout')).statusCode).toBeLessThan(400);
    // The browser forgot the cookie; someone who kept a copy of it gets nothing.
    client.cookies.set('margins_session', cookie);
    expect((await client.get('/profile/')).statusCode).toBe(401);
  });

  it('suspension: refused at once in this process', async () => {
    const { client, user } = await personFor(test);
    const moderator = await buildUser(test.ctx.db, { role: 'moderator' });
    await warm(client);
    await suspendUser(test.ctx, moderator, user.id, 'Spam');
    expect((await client.get('/profile/')).statusCode).toBe(401);
  });

  it('a session deleted in the database by anyone is refused at once', async () => {
    const { client } = await personFor(test);
    await warm(client);
    await test.ctx.db.delete(schema.sessions).where(eq(schema.sessions.id, sessionIdOf(client)));
    await announced(client);
    expect((await client.get('/profile/')).statusCode).toBe(401);
  });

  it('a change to the user (role, name, deletion) is seen by the next request', async () => {
    const { client, user } = await personFor(test);
    await warm(client);
    // A member is not shown the admin area at all.
    expect((await client.get('/admin/api/_meta')).statusCode).toBe(404);
    await test.ctx.db
      .update(schema.users)
      .set({ role: 'admin', displayName: 'Renamed' })
      .where(eq(schema.users.id, user.id));
    await announced(client);
    expect(sessionCacheOf(test.ctx).get(sessionIdOf(client))).toBeUndefined();
    expect((await client.get('/admin/api/_meta')).statusCode).toBe(200);
    expect(sessionCacheOf(test.ctx).get(sessionIdOf(client))?.displayName).toBe('Renamed');

    await test.ctx.db.delete(schema.users).where(eq(schema.users.id, user.id));
    await announced(client);
    expect((await client.get('/profile/')).statusCode).toBe(401);
  });

  it('forgets only the sessions of the user who changed', async () => {
    const first = await personFor(test);
    const second = await personFor(test);
    const secondAgain = await clientFor(test, second.user);
    for (const client of [first.client, second.client, secondAgain]) await warm(client);
    await test.ctx.db
      .update(schema.users)
      .set({ displayName: 'Changed' })
      .where(eq(schema.users.id, second.user.id));
    await announced(second.client);
    await announced(secondAgain);
    const cache = sessionCacheOf(test.ctx);
    expect(cache.get(sessionIdOf(first.client))).toBeDefined();
    expect(cache.get(sessionIdOf(second.client))).toBeUndefined();
    expect(cache.get(sessionIdOf(secondAgain))).toBeUndefined();
  });
});

describe('SessionCache', () => {
  const user = { id: 7 } as Parameters<SessionCache['keep']>[2];
  const later = new Date(Date.now() + 86_400_000);

  it('does not keep a read that a change overtook, nor past the session end', async () => {
    const cache = sessionCacheOf(test.ctx);
    const before = cache.mark();
    cache.forgetUser(user.id);
    cache.keep(before, 'overtaken', user, later);
    expect(cache.get('overtaken')).toBeUndefined();

    cache.keep(cache.mark(), 'ending', user, new Date(Date.now() - 1));
    expect(cache.get('ending')).toBeUndefined();
    cache.keep(cache.mark(), 'kept', user, later);
    expect(cache.get('kept')).toBe(user);
    cache.forgetSession('kept');
  });
});
