// Issue 19.1, 20.5 (verification link), 20.7 (password rules), 20.9 (CSRF rotation): what a
// stranger can learn from sign-up, log-in and lookup, and what a link or a token lets them do.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, MESSAGES, SESSION_COOKIE, SIGNUP_COOKIE } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser, loggedInClient, TEST_PASSWORD } from '../../test/factories.ts';

let test: TestApp;
let ipCounter = 10;
const nextIp = () => `10.9.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
let emailCounter = 0;
const nextEmail = () => `privacy${++emailCounter}-${Date.now()}@example.test`;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const signupBody = (email: string, password = TEST_PASSWORD) => ({
  email,
  password,
  display_name: 'Ada Reader',
});

async function mailsTo(email: string) {
  return (await test.ctx.mailer.list(1000)).filter((mail) => mail.to === email);
}

/** The latest verification link mailed to an address, as a path. */
async function verificationPath(email: string): Promise<string> {
  const [mail] = (await mailsTo(email)).filter((row) => row.subject.startsWith('Verify'));
  const match = mail && /https?:\/\/\S+(\/auth\/verify\?token=[\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no verification link to ${email}`);
  return match[1]!;
}

async function userByEmail(email: string) {
  const [user] = await test.ctx.db.select().from(schema.users).where(eq(schema.users.email, email));
  return user;
}

/** Names of the cookies an answer sets (their values are random either way). */
const cookieNames = (response: { cookies: Array<{ name: string }> }) =>
  response.cookies.map((cookie) => cookie.name).sort();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Median milliseconds of each of two calls, run alternately so that load hits both alike. */
async function medianTimes(
  rounds: number,
  first: (round: number) => Promise<unknown>,
  second: (round: number) => Promise<unknown>,
): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, call] of [first, second].entries()) {
      const start = performance.now();
      await call(round);
      times[index]!.push(performance.now() - start);
    }
  }
  return [median(times[0]), median(times[1])];
}

describe('sign-up does not tell whether an address has an account', () => {
  it('answers a known and a new address alike, and mails the owner instead', async () => {
    const owner = await buildUser(test.ctx.db);
    const fresh = nextEmail();
    const known = await new TestClient(test.app, nextIp()).post(
      '/auth/signup',
      signupBody(owner.email),
    );
    const unknown = await new TestClient(test.app, nextIp()).post(
      '/auth/signup',
      signupBody(fresh),
    );
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: MESSAGES.checkInbox, next: '/auth/verify' });
    expect(known.body).toBe(unknown.body);
    expect(cookieNames(known)).toEqual(cookieNames(unknown));
    expect(cookieNames(known)).toContain(SIGNUP_COOKIE);

    const [note] = await mailsTo(owner.email);
    expect(note?.subject).toMatch(/someone tried to sign up/i);
    expect(note?.text).toContain(`${test.ctx.config.publicUrl}/auth/login`);
    expect(note?.text).not.toMatch(/verify\?token/);
    // The account is untouched: its password still works.
    expect((await userByEmail(owner.email))!.passwordHash).toBe(owner.passwordHash);
    expect(await verificationPath(fresh)).toMatch(/^\/auth\/verify\?token=/);
  });

  it("limits the owner's notes per address (the answer stays the same)", async () => {
    const owner = await buildUser(test.ctx.db);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const response = await new TestClient(test.app, nextIp()).post(
        '/auth/signup',
        signupBody(owner.email),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe(MESSAGES.checkInbox);
    }
    expect(await mailsTo(owner.email)).toHaveLength(5);
  });

  it('a never-verified address goes to the newest sign-up; the first one is shut out', async () => {
    const email = nextEmail();
    const first = new TestClient(test.app, nextIp());
    expect(
      (await first.post('/auth/signup', signupBody(email, 'first pass phrase'))).statusCode,
    ).toBe(200);
    const login = await first.post('/auth/login', { email, password: 'first pass phrase' });
    expect(login.statusCode).toBe(200);
    const staleLink = await verificationPath(email);

    const second = new TestClient(test.app, nextIp());
    const again = await second.post('/auth/signup', signupBody(email, 'second pass phrase'));
    expect(again.statusCode).toBe(200);
    const rows = await test.ctx.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(rows).toHaveLength(1);
    // The first browser's session and link are gone; the new password is the account's.
    expect((await first.get('/user/current/invites')).statusCode).toBe(401);
    expect((await first.get(staleLink)).statusCode).toBe(400);
    const probe = new TestClient(test.app, nextIp());
    expect(
      (await probe.post('/auth/login', { email, password: 'first pass phrase' })).statusCode,
    ).toBe(401);
    expect(
      (await probe.post('/auth/login', { email, password: 'second pass phrase' })).statusCode,
    ).toBe(200);
  });

  it('sign-up, log-in and lookup take the same time and say the same for both', async () => {
    const rounds = 7;
    // A fresh account per round, so that per-account limits and delays weigh on neither side.
    const owners = await Promise.all(
      Array.from({ length: rounds * 2 + 1 }, () => buildUser(test.ctx.db)),
    );
    const { client: searcher } = await loggedInClient(test, undefined, nextIp());
    // Sign-up: a known address against new ones (argon2 runs either way).
    const [knownSignup, newSignup] = await medianTimes(
      rounds,
      (round) =>
        new TestClient(test.app, nextIp()).post('/auth/signup', signupBody(owners[round]!.email)),
      () => new TestClient(test.app, nextIp()).post('/auth/signup', signupBody(nextEmail())),
    );
    // Log-in: a wrong password for a known address against an unknown address.
    const loginAs = (email: string) =>
      new TestClient(test.app, nextIp()).post('/auth/login', { email, password: 'wrong password' });
    const known = await loginAs(owners[rounds * 2]!.email);
    const unknown = await loginAs(nextEmail());
    expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
    const [knownLogin, newLogin] = await medianTimes(
      rounds,
      (round) => loginAs(owners[rounds + round]!.email),
      () => loginAs(nextEmail()),
    );
    // Lookup never matches an address.
    const lookup = (q: string) => searcher.get(`/profile/lookup?q=${encodeURIComponent(q)}`);
    const knownLookup = await lookup(owners[0]!.email);
    const unknownLookup = await lookup(nextEmail());
    expect([knownLookup.statusCode, knownLookup.body]).toEqual([
      unknownLookup.statusCode,
      unknownLookup.body,
    ]);

    // Within noise: argon2 (~100 ms) dominates both sides. Skipping it on one side would be a
    // ratio of 10 or more; the bound leaves room for a machine shared with other work.
    for (const [a, b] of [
      [knownSignup, newSignup],
      [knownLogin, newLogin],
    ] as const) {
      const ratio = Math.max(a, b) / Math.min(a, b);
      expect(ratio, `${a.toFixed(1)} ms against ${b.toFixed(1)} ms`).toBeLessThan(2.5);
    }
  });
});

describe('the verification link logs in only the browser that signed up', () => {
  it('another browser gets the address verified and is asked to log in', async () => {
    const email = nextEmail();
    const signer = new TestClient(test.app, nextIp());
    await signer.post('/auth/signup', signupBody(email));
    const link = await verificationPath(email);

    const victim = new TestClient(test.app, nextIp());
    const page = await victim.get(link, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(
      `/auth/login?verified=1&next=${encodeURIComponent('/auth/complete/signup')}`,
    );
    expect(victim.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await userByEmail(email))!.emailVerifiedAt).not.toBeNull();
  });

  it('answers JSON without the user to another browser', async () => {
    const email = nextEmail();
    await new TestClient(test.app, nextIp()).post('/auth/signup', signupBody(email));
    const other = new TestClient(test.app, nextIp());
    const response = await other.get(await verificationPath(email));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: null,
      next: `/auth/login?verified=1&next=${encodeURIComponent('/auth/complete/signup')}`,
    });
    expect(other.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('a browser already logged in as that account stays logged in', async () => {
    const email = nextEmail();
    await new TestClient(test.app, nextIp()).post('/auth/signup', signupBody(email));
    const link = await verificationPath(email);
    const laptop = new TestClient(test.app, nextIp());
    expect((await laptop.post('/auth/login', { email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const response = await laptop.get(link);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email, email_verified: true });
  });
});

describe('password rules', () => {
  const refused: Array<[string, string, (email: string) => string]> = [
    ['one character repeated', MESSAGES.passwordOneCharacter, () => 'aaaaaaaaaa'],
    ['only spaces', MESSAGES.passwordWhitespace, () => '            '],
    ['only whitespace of any kind', MESSAGES.passwordWhitespace, () => ' \t \t \t \t \t '],
    ['the e-mail, in another case', MESSAGES.passwordIsEmail, (email) => email.toUpperCase()],
    ['a common password', MESSAGES.passwordCommon, () => 'qwertyuiop'],
    ['a common password in capitals', MESSAGES.passwordCommon, () => 'PASSWORD123'],
  ];
  it.each(refused)('refuses %s, saying why on the password field', async (_, message, make) => {
    const email = nextEmail();
    const client = new TestClient(test.app, nextIp());
    const response = await client.post('/auth/signup', signupBody(email, make(email)));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ password: [message] });
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses the e-mail as a password with 400 even when the address has an account', async () => {
    // The rule depends only on what was typed, so it tells nothing about the account.
    const owner = await buildUser(test.ctx.db);
    const response = await new TestClient(test.app, nextIp()).post(
      '/auth/signup',
      signupBody(owner.email, owner.email),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.password).toEqual([MESSAGES.passwordIsEmail]);
  });

  it('accepts an uncommon password of the right length', async () => {
    const email = nextEmail();
    const response = await new TestClient(test.app, nextIp()).post(
      '/auth/signup',
      signupBody(email, 'plum kettle orbit'),
    );
    expect(response.statusCode).toBe(200);
    expect(await userByEmail(email)).toBeDefined();
  });
});

describe('the CSRF token changes hands with the session', () => {
  it('is a new token after log in, and the old one is refused', async () => {
    const user = await buildUser(test.ctx.db);
    const client = new TestClient(test.app, nextIp());
    await client.get('/healthz');
    const before = client.cookies.get(CSRF_COOKIE)!;
    const login = await client.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(login.statusCode).toBe(200);
    const after = client.cookies.get(CSRF_COOKIE)!;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    // A page that planted or read the old token cannot write with it.
    const stale = await client.post('/auth/verify/resend', undefined, {
      csrf: false,
      headers: { 'x-csrf-token': before },
    });
    expect(stale.statusCode).toBe(403);
    expect((await client.post('/profile/mature', { show_mature: false })).statusCode).toBe(200);
  });

  it('is a new token after log out', async () => {
    const { client } = await loggedInClient(test, undefined, nextIp());
    const before = client.cookies.get(CSRF_COOKIE)!;
    expect((await client.post('/auth/logout')).statusCode).toBe(200);
    expect(client.cookies.get(CSRF_COOKIE)).not.toBe(before);
  });
});
