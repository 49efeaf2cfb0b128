import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '@margins/common';
import { createTestApp, type TestApp } from '../test/harness.ts';

let testApp: TestApp;

beforeAll(async () => {
  // PUBLIC_URL plain http, as in development: HSTS must follow the request, not the config.
  testApp = await createTestApp({ publicUrl: 'http://margins.test' });
});
afterAll(async () => {
  await testApp?.close();
});

/** The directives of a CSP header, by name. */
function directives(header: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  it.each(['/', '/api/openapi.json', '/nothing-here'])(
    'sends a strict CSP and the other headers on %s',
    async (url) => {
      const response = await testApp.app.inject({ method: 'GET', url });
      const csp = directives(String(response.headers['content-security-policy']));
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      // Nothing anywhere lets inline code or eval run.
      expect(String(response.headers['content-security-policy'])).not.toMatch(
        /unsafe-inline|unsafe-eval|nonce-|\*/,
      );
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('same-origin');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const permissions = String(response.headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment']) {
        expect(permissions).toContain(`${feature}=()`);
      }
    },
  );

  it('sends HSTS only over https, and believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const plain = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    const proxied = await testApp.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1', // TRUST_PROXY=loopback: the proxy on this machine
    });
    expect(proxied.headers['strict-transport-security']).toMatch(/^max-age=31536000/);

    const spoofed = await testApp.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '203.0.113.9',
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('marks cookies Secure when the request came over https', async () => {
    const cookieOf = (response: { cookies: { name: string; secure?: boolean }[] }) =>
      response.cookies.find((cookie) => cookie.name === CSRF_COOKIE);

    const plain = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(cookieOf(plain)?.secure).toBeFalsy();

    const proxied = await testApp.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(cookieOf(proxied)?.secure).toBe(true);
  });
});
