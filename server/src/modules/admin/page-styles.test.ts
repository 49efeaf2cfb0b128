import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

/** The directives of a CSP header, by name. */
function directives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function styleNonceOf(html: string): unknown {
  const json = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  const config = JSON.parse(json?.[1] ?? '{}') as { data?: { styleNonce?: unknown } };
  return config.data?.styleNonce;
}

describe('the admin page and its run-time styles', () => {
  it('allows style elements with a fresh nonce, given to the page, and nothing else', async () => {
    const { client } = await loggedInClient(test, await buildUser(test.ctx.db, { role: 'admin' }));
    const nonces: string[] = [];
    for (const url of ['/admin/', '/admin/user/3/show']) {
      const response = await client.get(url, { headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      const csp = directives(response.headers['content-security-policy']);
      const nonce = styleNonceOf(response.body);
      expect(typeof nonce).toBe('string');
      expect(csp.get('style-src')).toEqual(["'self'", `'nonce-${String(nonce)}'`]);
      // Scripts are untouched: the nonce is for styles only.
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      nonces.push(String(nonce));
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    expect(nonces[0]!.length).toBeGreaterThanOrEqual(24);
  });

  it('keeps the strict policy everywhere else and for anyone who is not staff', async () => {
    const { client } = await loggedInClient(test);
    const refused = await client.get('/admin/', { headers: { accept: 'text/html' } });
    expect(refused.statusCode).toBe(404);
    expect(String(refused.headers['content-security-policy'])).not.toContain('nonce-');
    const home = await client.get('/', { headers: { accept: 'text/html' } });
    expect(directives(home.headers['content-security-policy']).get('style-src')).toEqual([
      "'self'",
    ]);
  });
});
