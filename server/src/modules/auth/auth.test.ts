import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, SESSION_COOKIE } from '@margins/common';
import { schema } from '../../db/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser, loggedInClient, TEST_PASSWORD } from '../../test/factories.ts';
import { safeNext } from './service.ts';

let test: TestApp;
/** Each test signs up from its own address, so the per-IP limits never cross tests. */
let ipCounter = 10;
const nextIp = () => `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
let emailCounter = 0;
const nextEmail = () => `reader${++emailCounter}-${Date.now()}@example.test`;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

/** The session id stored server-side for a client's session cookie (SHA-256 of the token). */
function sessionIdOf(client: TestClient): string | undefined {
  const cookie = client.cookies.get(SESSION_COOKIE);
  if (!cookie) return undefined;
  const unsigned = test.app.unsignCookie(cookie);
  return unsigned.valid && unsigned.value ? hashToken(unsigned.value) : undefined;
}

async function sessionRow(id: string | undefined) {
  if (!id) return undefined;
  const [row] = await test.ctx.db.select().from(schema.sessions).where(eq(schema.sessions.id, id));
  return row;
}

/** The latest verification link mailed to an address (from the outbox). */
async function verificationLink(email: string): Promise<string> {
  const mails = await test.ctx.mailer.list();
  const mail = mails.find((row) => row.to === email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return match[0];
}

const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

async function signUp(client: TestClient, email = nextEmail()) {
  const response = await client.post('/auth/signup', {
    email,
    password: TEST_PASSWORD,
    display_name: 'Ada Reader',
  });
  expect(response.statusCode, response.body).toBe(200);
  return { email, response };
}

describe('sign up', () => {
  it('answers field errors for every bad field', async () => {
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/signup', {
      email: 'not-an-email',
      password: 'short',
      display_name: '   ',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe(MESSAGES.checkFormFields);
    expect(Object.keys(body.errors).sort()).toEqual(['display_name', 'email', 'password']);
    expect(body.errors.password[0]).toMatch(/at least 10 characters/);
    expect(body.errors.email[0]).toMatch(/valid e-mail/);
  });

  it('refuses a missing body field with a field error, not a crash', async () => {
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/signup', { email: nextEmail() });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toHaveProperty('password');
  });

  it('creates an unverified account, logs nobody in and mails a link', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email, response } = await signUp(client);
    expect(response.json()).toEqual({ message: MESSAGES.checkInbox, next: '/auth/verify' });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    const link = await verificationLink(email);
    expect(link.startsWith(test.ctx.config.publicUrl + '/auth/verify?token=')).toBe(true);
    const [user] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, email));
    expect(user).toMatchObject({ emailVerifiedAt: null, signupCompletedAt: null });
    expect(user!.passwordHash).not.toContain(TEST_PASSWORD);
    expect(user!.passwordHash.startsWith('$argon2id$')).toBe(true);
  });

  it('never makes a second account with the same e-mail, whatever its case', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email } = await signUp(client);
    const again = await client.post('/auth/signup', {
      email: email.toUpperCase(),
      password: TEST_PASSWORD,
      display_name: 'Someone Else',
    });
    expect(again.statusCode).toBe(200);
    const rows = await test.ctx.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(rows).toHaveLength(1);
  });
});

describe('e-mail verification', () => {
  it('works once, logs that browser in and sends it on to complete sign-up', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email } = await signUp(client);
    const link = await verificationLink(email);

    const first = await client.get(pathOf(link), { headers: { accept: 'text/html' } });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/auth/complete/signup');
    expect(client.cookies.has(SESSION_COOKIE)).toBe(true);
    const session = await sessionRow(sessionIdOf(client));
    const [user] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, email));
    expect(session?.userId).toBe(user!.id);
    expect(user!.emailVerifiedAt).not.toBeNull();

    // The session works: the logged-in-only call no longer answers 401.
    const complete = await client.post('/auth/complete/signup', {
      handle: `ada_${emailCounter}`,
      display_name: 'Ada',
    });
    expect(complete.statusCode, complete.body).toBe(200);

    const other = new TestClient(test.app, nextIp());
    const second = await other.get(pathOf(link), { headers: { accept: 'text/html' } });
    expect(second.statusCode).toBe(400);
    expect(other.cookies.has(SESSION_COOKIE)).toBe(false);
    const secondJson = await other.get(pathOf(link));
    expect(secondJson.statusCode).toBe(400);
    expect(secondJson.json().error).toMatch(/invalid or expired/);
  });

  it('answers JSON to a JSON client', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email } = await signUp(client);
    const response = await client.get(pathOf(await verificationLink(email)));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { email, email_verified: true, signup_complete: false },
      next: '/auth/complete/signup',
    });
  });

  it('refuses an expired link', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email } = await signUp(client);
    const link = await verificationLink(email);
    const token = new URL(link).searchParams.get('token')!;
    await test.ctx.db
      .update(schema.emailVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailVerifications.tokenHash, hashToken(token)));
    const response = await client.get(pathOf(link));
    expect(response.statusCode).toBe(400);
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    const [user] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, email));
    expect(user!.emailVerifiedAt).toBeNull();
  });

  it('refuses a made-up token, and shows the page without one', async () => {
    const client = new TestClient(test.app, nextIp());
    expect((await client.get('/auth/verify?token=not-a-real-token')).statusCode).toBe(400);
    const page = await client.get('/auth/verify', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('log in', () => {
  it('answers 401 with the message for a wrong password or an unknown e-mail', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    const wrong = await client.post('/auth/login', { email: user.email, password: 'wrong-pass' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: MESSAGES.loginFailed });
    const unknown = await client.post('/auth/login', {
      email: 'nobody@example.test',
      password: TEST_PASSWORD,
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: MESSAGES.loginFailed });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('logs in with the right password; e-mail case does not matter', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/login', {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
      next: '/profile/',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { id: user.id }, next: '/profile/' });
    expect(await sessionRow(sessionIdOf(client))).toMatchObject({ userId: user.id });
    const setCookie = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!;
    expect(setCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('never sends a user to another site after log in', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      next: '//evil.example/phish',
    });
    expect(response.json().next).toBe('/dashboard');
  });

  it('sends an account whose sign-up is incomplete to complete it', async () => {
    const user = await buildUser(test.ctx.db, { handle: null, signupCompletedAt: null });
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      next: '/profile/',
    });
    expect(response.json().next).toBe('/auth/complete/signup');
  });

  // Issue 20 item 6: a growing wait instead of a 15-minute lock (login-throttle.test.ts has
  // the known device and the log-in link that let the owner in meanwhile).
  it('slows an account down after 5 failures (429 with the wait), even for the right password', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await client.post('/auth/login', {
        email: user.email,
        password: `wrong-${attempt}`,
      });
      expect(response.statusCode).toBe(401);
    }
    const locked = await client.post('/auth/login', { email: user.email, password: 'wrong-6' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/^Too many failed log-ins\. Try again in \d+ seconds?/);
    // From another address too: the limit is per account, not per IP.
    const elsewhere = new TestClient(test.app, nextIp());
    const right = await elsewhere.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(right.statusCode).toBe(429);
    expect(elsewhere.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('a successful log in clears the failure count of that account', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    for (let attempt = 1; attempt <= 4; attempt++) {
      await client.post('/auth/login', { email: user.email, password: 'wrong-password' });
    }
    const ok = await client.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await client.post('/auth/login', {
        email: user.email,
        password: 'wrong-password',
      });
      expect(wrong.statusCode).toBe(401);
    }
  });

  it('limits log in attempts per IP address (429), across accounts', async () => {
    const ip = nextIp();
    const client = new TestClient(test.app, ip);
    let status = 0;
    let attempts = 0;
    // 30 failures per IP before the first wait; each attempt uses another e-mail so the account
    // throttle never trips.
    while (attempts < 40) {
      attempts++;
      const response = await client.post('/auth/login', {
        email: `ip-limit-${attempts}@example.test`,
        password: 'wrong-password',
      });
      status = response.statusCode;
      if (status !== 401) break;
    }
    expect(status).toBe(429);
    expect(attempts).toBe(31);
    // The right password from that address is refused too; another address still logs in.
    const user = await buildUser(test.ctx.db);
    const blocked = await client.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(blocked.statusCode).toBe(429);
    const other = new TestClient(test.app, nextIp());
    const ok = await other.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  // request.ip is what the per-IP limits count; the session row keeps it.
  it('a made-up X-Forwarded-For does not change the address the limits count', async () => {
    const user = await buildUser(test.ctx.db);
    const ip = nextIp();
    const client = new TestClient(test.app, ip);
    const response = await client.post(
      '/auth/login',
      { email: user.email, password: TEST_PASSWORD },
      { headers: { 'x-forwarded-for': '203.0.113.7' } },
    );
    expect(response.statusCode).toBe(200);
    expect((await sessionRow(sessionIdOf(client)))?.ip).toBe(ip);
  });

  it('believes X-Forwarded-For from a proxy on this machine (loopback)', async () => {
    const user = await buildUser(test.ctx.db);
    const proxy = new TestClient(test.app, '127.0.0.1');
    const response = await proxy.post(
      '/auth/login',
      { email: user.email, password: TEST_PASSWORD },
      { headers: { 'x-forwarded-for': '198.51.100.9' } },
    );
    expect(response.statusCode).toBe(200);
    expect((await sessionRow(sessionIdOf(proxy)))?.ip).toBe('198.51.100.9');
  });
});

describe('sessions', () => {
  it('gets a new session id at log in; the old session row is gone', async () => {
    const user = await buildUser(test.ctx.db);
    const { client } = await loggedInClient(test, user, nextIp());
    const before = client.cookies.get(SESSION_COOKIE)!;
    const beforeId = sessionIdOf(client)!;
    expect(await sessionRow(beforeId)).toBeDefined();

    const again = await client.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(again.statusCode).toBe(200);
    const after = client.cookies.get(SESSION_COOKIE)!;
    expect(after).not.toBe(before);
    expect(sessionIdOf(client)).not.toBe(beforeId);
    expect(await sessionRow(beforeId)).toBeUndefined();
    expect(await sessionRow(sessionIdOf(client))).toMatchObject({ userId: user.id });
  });

  it('gets a new session id when a verification link logs in', async () => {
    const owner = await buildUser(test.ctx.db);
    const { client } = await loggedInClient(test, owner, nextIp());
    const beforeId = sessionIdOf(client)!;
    // The same browser signs up a new account and opens its link: the old session is replaced.
    const { email } = await signUp(client);
    const response = await client.get(pathOf(await verificationLink(email)));
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email });
    expect(sessionIdOf(client)).not.toBe(beforeId);
    expect(await sessionRow(beforeId)).toBeUndefined();
  });

  it('an old cookie is dead after log out', async () => {
    const { client } = await loggedInClient(test, undefined, nextIp());
    const oldCookie = client.cookies.get(SESSION_COOKIE)!;
    const oldId = sessionIdOf(client)!;
    const logout = await client.post('/auth/logout');
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ ok: true });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionRow(oldId)).toBeUndefined();

    // Replaying the saved cookie: anonymous, and 401 on a logged-in-only call.
    client.cookies.set(SESSION_COOKIE, oldCookie);
    const page = await client.get('/auth/login', { headers: { accept: 'text/html' } });
    expect(page.body).toContain('"loginState":"anonymous"');
    const protectedCall = await client.post('/auth/complete/signup', {
      handle: 'replayed',
      display_name: 'Replayed',
    });
    expect(protectedCall.statusCode).toBe(401);
    expect(protectedCall.json().error).toBe(MESSAGES.notLoggedIn);
  });

  it('ignores a session cookie with a forged signature', async () => {
    const { client } = await loggedInClient(test, undefined, nextIp());
    const cookie = client.cookies.get(SESSION_COOKIE)!;
    const token = cookie.slice(0, cookie.lastIndexOf('.'));
    client.cookies.set(SESSION_COOKIE, `${token}.forgedsignature`);
    const response = await client.post('/auth/complete/signup', {
      handle: 'forged',
      display_name: 'Forged',
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an expired session', async () => {
    const { client } = await loggedInClient(test, undefined, nextIp());
    await test.ctx.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.sessions.id, sessionIdOf(client)!));
    const response = await client.post('/auth/complete/signup', {
      handle: 'expired',
      display_name: 'Expired',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('complete sign-up', () => {
  it('requires log in', async () => {
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/complete/signup', {
      handle: 'anonymous',
      display_name: 'Anon',
    });
    expect(response.statusCode).toBe(401);
    const page = await client.get('/auth/complete/signup', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/auth/login?next=/auth/complete/signup');
  });

  it('sets handle and display name and completes the account', async () => {
    const user = await buildUser(test.ctx.db, { handle: null, signupCompletedAt: null });
    const { client } = await loggedInClient(test, user, nextIp());
    const response = await client.post('/auth/complete/signup', {
      handle: `Ada_${user.id}`,
      display_name: '  Ada Lovelace  ',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { handle: `Ada_${user.id}`, display_name: 'Ada Lovelace', signup_complete: true },
      next: '/dashboard',
    });
  });

  it('refuses a bad handle with a field error', async () => {
    const user = await buildUser(test.ctx.db, { handle: null, signupCompletedAt: null });
    const { client } = await loggedInClient(test, user, nextIp());
    const response = await client.post('/auth/complete/signup', {
      handle: 'x!',
      display_name: 'Ada',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.handle).toBeDefined();
  });

  it('refuses a taken handle (any case) with 400 errors.handle', async () => {
    const taken = await buildUser(test.ctx.db);
    const user = await buildUser(test.ctx.db, { handle: null, signupCompletedAt: null });
    const { client } = await loggedInClient(test, user, nextIp());
    const response = await client.post('/auth/complete/signup', {
      handle: taken.handle!.toUpperCase(),
      display_name: 'Copycat',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.handle).toEqual([MESSAGES.handleTaken]);
  });
});

describe('complete sign-up with platform invites', () => {
  let invites: TestApp;
  beforeAll(async () => {
    invites = await createTestApp({ invitesEnabled: true });
  });
  afterAll(async () => {
    await invites?.close();
  });

  async function newcomer() {
    const user = await buildUser(invites.ctx.db, { handle: null, signupCompletedAt: null });
    return loggedInClient(invites, user, nextIp());
  }

  it('requires an invite code, and each code works once', async () => {
    const inviter = await buildUser(invites.ctx.db);
    await invites.ctx.db
      .insert(schema.platformInviteCodes)
      .values({ code: 'WELCOME-42', createdById: inviter.id });

    const first = await newcomer();
    const missing = await first.client.post('/auth/complete/signup', {
      handle: `first_${first.user.id}`,
      display_name: 'First',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.invite_code).toBeDefined();

    const wrong = await first.client.post('/auth/complete/signup', {
      handle: `first_${first.user.id}`,
      display_name: 'First',
      invite_code: 'NOPE',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.invite_code).toBeDefined();

    const ok = await first.client.post('/auth/complete/signup', {
      handle: `first_${first.user.id}`,
      display_name: 'First',
      invite_code: 'WELCOME-42',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const [code] = await invites.ctx.db
      .select()
      .from(schema.platformInviteCodes)
      .where(eq(schema.platformInviteCodes.code, 'WELCOME-42'));
    expect(code!.redeemedById).toBe(first.user.id);

    const second = await newcomer();
    const reused = await second.client.post('/auth/complete/signup', {
      handle: `second_${second.user.id}`,
      display_name: 'Second',
      invite_code: 'WELCOME-42',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errors.invite_code).toBeDefined();
    const [still] = await invites.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, second.user.id));
    expect(still!.signupCompletedAt).toBeNull();
  });

  it('does not redeem the code when the handle is taken', async () => {
    const taken = await buildUser(invites.ctx.db);
    await invites.ctx.db.insert(schema.platformInviteCodes).values({ code: 'KEEP-ME' });
    const { client } = await newcomer();
    const response = await client.post('/auth/complete/signup', {
      handle: taken.handle!,
      display_name: 'Late',
      invite_code: 'KEEP-ME',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.handle).toEqual([MESSAGES.handleTaken]);
    const [code] = await invites.ctx.db
      .select()
      .from(schema.platformInviteCodes)
      .where(eq(schema.platformInviteCodes.code, 'KEEP-ME'));
    expect(code!.redeemedById).toBeNull();
  });
});

describe('safeNext', () => {
  it('keeps a local path', () => {
    expect(safeNext('/profile/')).toBe('/profile/');
    expect(safeNext('/manuscript/document/reader/3?x=1#p-2')).toBe(
      '/manuscript/document/reader/3?x=1#p-2',
    );
  });

  it.each([
    '//evil.com',
    'https://evil.com',
    'http://evil.com/dashboard',
    '/\\evil.com',
    '\\\\evil.com',
    'javascript:alert(1)',
    'evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '\t//evil.com',
    '',
  ])('refuses %j', (next) => {
    expect(safeNext(next)).toBe('/dashboard');
    expect(safeNext(next, '/home')).toBe('/home');
  });

  it('falls back without a value', () => {
    expect(safeNext(undefined)).toBe('/dashboard');
    expect(safeNext(null, '/x')).toBe('/x');
  });
});

describe('the service around auth', () => {
  it('/healthz answers ok with the database kind', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: true,
      db: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', ok: true },
    });
  });

  it('/api/openapi.json lists the auth calls', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    expect(paths['/auth/signup']).toHaveProperty('post');
    expect(paths['/auth/login']).toHaveProperty('post');
    expect(paths['/auth/logout']).toHaveProperty('post');
    expect(paths['/auth/verify']).toHaveProperty('get');
    expect(paths['/auth/complete/signup']).toHaveProperty('post');
    expect(paths['/healthz']).toHaveProperty('get');
    // Pages are hidden: only data calls are documented.
    expect(paths['/auth/login']).not.toHaveProperty('get');
    const signup = paths['/auth/signup']!.post as {
      requestBody: { content: Record<string, { schema: { properties: object } }> };
    };
    expect(Object.keys(signup.requestBody.content['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['email', 'password', 'display_name']),
    );
  });

  it('never answers a stack trace for malformed JSON', async () => {
    const client = new TestClient(test.app, nextIp());
    const response = await client.request({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual(expect.any(String));
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('the development mailbox', () => {
  it('lists the kept mails as JSON, newest first, with the verification link', async () => {
    const client = new TestClient(test.app, nextIp());
    const { email: older } = await signUp(client);
    const { email: newer } = await signUp(client);
    // The mailbox is read from this machine (loopback) only.
    const response = await new TestClient(test.app).get('/dev/mail');
    expect(response.statusCode).toBe(200);
    const { messages } = response.json() as {
      messages: { id: number; to: string; subject: string; text: string; html: string }[];
    };
    const ids = messages.map((message) => message.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const recipients = messages.map((message) => message.to);
    expect(recipients.indexOf(newer)).toBeLessThan(recipients.indexOf(older));
    const mail = messages.find((message) => message.to === newer)!;
    expect(mail.subject).toBe('Verify your e-mail for Margins');
    const link = await verificationLink(newer);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('is a page for a browser', async () => {
    const client = new TestClient(test.app);
    const response = await client.get('/dev/mail', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('"page":"dev-mail"');
  });

  it('does not exist in production', async () => {
    const production = await createTestApp({ env: 'production' });
    try {
      const response = await production.app.inject({
        method: 'GET',
        url: '/dev/mail',
        headers: { accept: 'application/json' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('verification mail over real SMTP', () => {
  let smtp: SMTPServer;
  let smtpApp: TestApp;
  const received: { to: string[]; raw: string }[] = [];
  let onMail: () => void = () => {};

  beforeAll(async () => {
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          onMail();
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    smtpApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await smtpApp?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  /** Decodes a quoted-printable body well enough to find a link in it. */
  const decodeQuotedPrintable = (text: string) =>
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

  it('delivers the verification mail with a working link', async () => {
    const client = new TestClient(smtpApp.app, nextIp());
    const email = nextEmail();
    const arrived = new Promise<void>((resolve) => (onMail = resolve));
    const response = await client.post('/auth/signup', {
      email,
      password: TEST_PASSWORD,
      display_name: 'Smtp Reader',
    });
    expect(response.statusCode).toBe(200);
    await Promise.race([
      arrived,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no mail in 10 s')), 10_000)),
    ]);

    const mail = received.find((message) => message.to.includes(email))!;
    expect(mail).toBeDefined();
    expect(mail.raw).toMatch(/^Subject: Verify your e-mail for Margins$/m);
    expect(mail.raw).toMatch(new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'm'));
    expect(mail.raw).toMatch(/^From: Margins <no-reply@margins\.local>$/m);
    const body = decodeQuotedPrintable(mail.raw);
    const match = /(https?:\/\/[^\s"<]+\/auth\/verify\?token=[\w-]+)/.exec(body);
    expect(match).not.toBeNull();
    const link = match![1]!;
    expect(link.startsWith(`${smtpApp.ctx.config.publicUrl}/auth/verify?token=`)).toBe(true);

    // The outbox row is marked sent (written just after the SMTP answer).
    await expect
      .poll(async () => {
        const [row] = await smtpApp.ctx.db
          .select()
          .from(schema.mailOutbox)
          .where(eq(schema.mailOutbox.to, email));
        return row?.status;
      })
      .toBe('sent');

    const verified = await client.get(pathOf(link));
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ email, email_verified: true });
  });

  it('has no development mailbox when SMTP_URL is set', async () => {
    const client = new TestClient(smtpApp.app, nextIp());
    const response = await client.get('/dev/mail');
    expect(response.statusCode).toBe(404);
    const page = await client.get('/dev/mail', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
  });
});
