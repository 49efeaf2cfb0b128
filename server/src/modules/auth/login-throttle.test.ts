import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, MESSAGES, SESSION_COOKIE } from '@margins/common';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser, TEST_PASSWORD } from '../../test/factories.ts';
import type { UserRow } from '../../context.ts';

// Issue 20 item 6, lockout as a weapon: five wrong passwords from anyone used to lock the
// owner out for 15 minutes. Now failures slow down only who fails (per IP, per account that is
// not on a known device), and the owner gets in from a known device or by a mailed link.

let test: TestApp;
let ipCounter = 1;
const nextIp = () => `10.20.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const THROTTLED =
  /^Too many failed log-ins\. Try again in (\d+) seconds?, or send yourself a log-in link\.$/;

async function guessWrong(user: UserRow, times: number, ip = nextIp()): Promise<TestClient> {
  const attacker = new TestClient(test.app, ip);
  for (let attempt = 1; attempt <= times; attempt++) {
    await attacker.post('/auth/login', { email: user.email, password: `guess-${attempt}` });
  }
  return attacker;
}

/** The one-time log-in link of the latest log-in mail to this address. */
async function loginLinkTo(email: string): Promise<string> {
  const mail = (await test.ctx.mailer.list()).find(
    (row) => row.to === email && row.subject.includes('log-in link'),
  );
  const match = mail && /\/auth\/login\/link\?token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no log-in link mailed to ${email}`);
  return match[1]!;
}

describe('log-in throttling', () => {
  it('answers 429 with the seconds to wait, and the wait grows with each failure', async () => {
    const user = await buildUser(test.ctx.db);
    const ip = nextIp();
    const attacker = await guessWrong(user, 5, ip);
    const refused = await attacker.post('/auth/login', { email: user.email, password: 'x' });
    expect(refused.statusCode).toBe(429);
    const first = Number(THROTTLED.exec(refused.json().error)?.[1]);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(2);
    // Two more failures after each wait: the wait doubles each time (2 s → 4 s → 8 s).
    await test.ctx.limits.loginPerAccount.fail(`account:${user.email}`);
    await test.ctx.limits.loginPerAccount.fail(`account:${user.email}`);
    const later = await attacker.post('/auth/login', { email: user.email, password: 'x' });
    expect(Number(THROTTLED.exec(later.json().error)?.[1])).toBeGreaterThan(4);
  });

  it('never locks for long: the wait is capped and over once it has passed', async () => {
    const throttle = test.ctx.limits.loginPerAccount;
    const key = `account:cap-${Date.now()}@example.test`;
    const now = Date.now();
    let wait = 0;
    for (let failure = 1; failure <= 40; failure++) wait = await throttle.fail(key, now);
    expect(wait).toBe(15 * 60);
    expect(await throttle.waitSeconds(key, now + 15 * 60_000 + 1)).toBe(0);
  });

  it("an attacker's wrong passwords do not stop the owner on a known device", async () => {
    const user = await buildUser(test.ctx.db);
    const owner = new TestClient(test.app, nextIp());
    const first = await owner.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(owner.cookies.has(DEVICE_COOKIE)).toBe(true);
    await owner.post('/auth/logout');

    const attacker = await guessWrong(user, 12);
    const blocked = await attacker.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(blocked.statusCode).toBe(429);
    // A browser without the device cookie is throttled like the attacker…
    const newBrowser = new TestClient(test.app, nextIp());
    const stranger = await newBrowser.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(stranger.statusCode).toBe(429);
    // …the owner's known device logs straight in.
    const back = await owner.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(back.statusCode).toBe(200);
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it('a device cookie of another account or a forged one is no known device', async () => {
    const user = await buildUser(test.ctx.db);
    const other = await buildUser(test.ctx.db);
    const browser = new TestClient(test.app, nextIp());
    await browser.post('/auth/login', { email: other.email, password: TEST_PASSWORD });
    await browser.post('/auth/logout');
    await guessWrong(user, 6);
    const refused = await browser.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(refused.statusCode).toBe(429);
    browser.cookies.set(DEVICE_COOKIE, 'made-up.token');
    const forged = await browser.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(forged.statusCode).toBe(429);
  });

  it('failures on a known device slow that device down, not the account', async () => {
    const user = await buildUser(test.ctx.db);
    const device = new TestClient(test.app, nextIp());
    await device.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    await device.post('/auth/logout');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await device.post('/auth/login', { email: user.email, password: 'wrong-password' });
    }
    const slowed = await device.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(slowed.statusCode).toBe(429);
    const elsewhere = new TestClient(test.app, nextIp());
    const ok = await elsewhere.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });
});

describe('one-time log-in link', () => {
  it('logs in once, by POST only, and clears the account throttle', async () => {
    const user = await buildUser(test.ctx.db);
    await guessWrong(user, 8);
    const owner = new TestClient(test.app, nextIp());
    const throttled = await owner.post('/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(throttled.statusCode).toBe(429);

    const sent = await owner.post('/auth/login/link', { email: user.email, next: '/profile/' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ ok: true, message: MESSAGES.loginLinkSent });
    const token = await loginLinkTo(user.email);

    // Opening the link (a cross-site GET, say) shows the page and logs no one in.
    const opened = await owner.get(`/auth/login/link?token=${token}`, {
      headers: { accept: 'text/html' },
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('login-link');
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(false);
    // A confirmation from another site (no CSRF header) is refused.
    const forged = await owner.post('/auth/login/link/confirm', { token }, { csrf: false });
    expect(forged.statusCode).toBe(403);
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(false);

    const confirmed = await owner.post('/auth/login/link/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ user: { id: user.id }, next: '/profile/' });
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(owner.cookies.has(DEVICE_COOKIE)).toBe(true);

    const again = await new TestClient(test.app, nextIp()).post('/auth/login/link/confirm', {
      token,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(MESSAGES.loginLinkInvalid);
    // The account's throttle is cleared: the password works again from a new browser.
    const fresh = new TestClient(test.app, nextIp());
    const ok = await fresh.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  it('expires', async () => {
    const user = await buildUser(test.ctx.db);
    const owner = new TestClient(test.app, nextIp());
    await owner.post('/auth/login/link', { email: user.email });
    const token = await loginLinkTo(user.email);
    await test.ctx.db.execute(
      // Fifteen minutes and a second later.
      `update login_links set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    const late = await owner.post('/auth/login/link/confirm', { token });
    expect(late.statusCode).toBe(400);
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('answers the same for an address without an account, and sends nothing', async () => {
    const client = new TestClient(test.app, nextIp());
    const email = `nobody-${Date.now()}@example.test`;
    const sent = await client.post('/auth/login/link', { email });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ ok: true, message: MESSAGES.loginLinkSent });
    expect((await test.ctx.mailer.list()).some((mail) => mail.to === email)).toBe(false);
  });

  it('refuses a bad address and a made-up token with a clear 400', async () => {
    const client = new TestClient(test.app, nextIp());
    const bad = await client.post('/auth/login/link', { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBeDefined();
    const madeUp = await client.post('/auth/login/link/confirm', { token: 'made-up' });
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json().error).toBe(MESSAGES.loginLinkInvalid);
  });
});
