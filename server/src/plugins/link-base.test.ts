import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invite } from '@margins/common';
import { loadConfig, mailBaseLine } from '../config.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { personFor, type Person } from '../modules/invites/test-helpers.ts';
import { requestOrigin } from './link-base.ts';

/** Makes (or reuses) the share link of a new manuscript, asked for on a given Host. */
async function shareLink(
  test: TestApp,
  author: Person,
  headers: Record<string, string>,
): Promise<string> {
  const manuscript = await buildManuscript(test.ctx.db, author.user, { visibility: 'private' });
  const response = await author.client.post(
    `/manuscript/${manuscript.id}/invite/link`,
    { access: 'logged_in' },
    { headers },
  );
  expect(response.statusCode, response.body).toBe(200);
  const { invite } = response.json() as { invite: Invite };
  return invite.link!;
}

/** The verification link mailed to a new sign-up made on a given Host. */
async function mailedLink(test: TestApp, headers: Record<string, string>): Promise<string> {
  const email = `link-base-${Math.random().toString(36).slice(2)}@example.test`;
  const client = new TestClient(test.app, '10.9.8.7');
  const response = await client.post(
    '/auth/signup',
    { email, password: 'a long enough passphrase', display_name: 'Lin Base' },
    { headers },
  );
  expect(response.statusCode, response.body).toBe(200);
  const mail = (await test.ctx.mailer.list()).find((row) => row.to === email);
  const match = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail?.text ?? '');
  if (!match) throw new Error(`no verification link in: ${mail?.text}`);
  return match[0];
}

describe('links without PUBLIC_URL', () => {
  let test: TestApp;
  let author: Person;
  beforeAll(async () => {
    test = await createTestApp();
    author = await personFor(test);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('a share link shown in the page opens on the host the browser used', async () => {
    expect(test.ctx.config.publicUrlSet).toBe(false);
    const link = await shareLink(test, author, { host: '127.0.0.1:3000' });
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/share\/[\w-]+$/);
    const other = await shareLink(test, author, { host: 'margins.lan:8080' });
    expect(other).toMatch(/^http:\/\/margins\.lan:8080\/share\/[\w-]+$/);
  });

  it('the listed invites of the share panel use that host too', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, { visibility: 'private' });
    await author.client.post(`/manuscript/${manuscript.id}/invite/link`, { access: 'logged_in' });
    const response = await author.client.get(`/manuscript/${manuscript.id}/invites`, {
      headers: { host: '127.0.0.1:3000' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { invites } = response.json() as { invites: Invite[] };
    expect(invites.length).toBeGreaterThan(0);
    for (const invite of invites.filter((candidate) => candidate.link !== null)) {
      expect(invite.link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/share\//);
    }
  });

  it('behind a trusted proxy, the forwarded protocol and host', async () => {
    const link = await shareLink(test, author, {
      host: '127.0.0.1:3000',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'margins.example',
    });
    expect(link).toMatch(/^https:\/\/margins\.example\/share\//);
  });

  it('a host that is not a host name falls back to the configured base', async () => {
    expect(requestOrigin({ protocol: 'http', host: 'evil.example/"><script>' })).toBeNull();
    expect(requestOrigin({ protocol: 'http', host: 'a b' })).toBeNull();
    expect(requestOrigin({ protocol: 'http', host: '' })).toBeNull();
    expect(requestOrigin({ protocol: 'https', host: '[::1]:3000' })).toBe('https://[::1]:3000');
    expect(requestOrigin({ protocol: 'http', host: 'Margins.LAN' })).toBe('http://margins.lan');
  });

  it('mails never take the request host: they use the configured base', async () => {
    const link = await mailedLink(test, { host: 'attacker.example' });
    expect(link.startsWith(`${test.ctx.config.publicUrl}/auth/verify?token=`)).toBe(true);
  });
});

describe('links with PUBLIC_URL', () => {
  let test: TestApp;
  let author: Person;
  beforeAll(async () => {
    test = await createTestApp({ publicUrl: 'https://margins.example', publicUrlSet: true });
    author = await personFor(test);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('share links and mails both use PUBLIC_URL, whatever the Host', async () => {
    const link = await shareLink(test, author, { host: '127.0.0.1:3000' });
    expect(link).toMatch(/^https:\/\/margins\.example\/share\/[\w-]+$/);
    const mailed = await mailedLink(test, { host: '127.0.0.1:3000' });
    expect(mailed.startsWith('https://margins.example/auth/verify?token=')).toBe(true);
  });
});

describe('the start-up line about mail links', () => {
  it('names the mail base and whether PUBLIC_URL set it', () => {
    const unset = loadConfig({ DATA_DIR: '/tmp/margins-test-unused', PORT: '3100' });
    expect(unset.publicUrlSet).toBe(false);
    expect(mailBaseLine(unset)).toContain('http://localhost:3100');
    expect(mailBaseLine(unset)).toContain('PUBLIC_URL is not set');
    const set = loadConfig({
      DATA_DIR: '/tmp/margins-test-unused',
      PUBLIC_URL: 'https://margins.example/',
    });
    expect(set.publicUrlSet).toBe(true);
    expect(mailBaseLine(set)).toBe(
      'Links in e-mails point to https://margins.example (PUBLIC_URL)',
    );
  });
});
