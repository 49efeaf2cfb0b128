import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { loadConfig } from '../../config.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { isLoopbackAddress } from '../../lib/local-request.ts';

let testApp: TestApp;

beforeAll(async () => {
  // Believe every proxy, so that a forged X-Forwarded-For does change request.ip.
  testApp = await createTestApp({ trustProxy: true });
  await testApp.ctx.mailer.send({
    to: 'newcomer@example.com',
    subject: 'Verify',
    text: 'link',
    html: '<p>link</p>',
  });
});
afterAll(async () => {
  await testApp?.close();
});

const devMail = (remoteAddress: string, headers: Record<string, string> = {}) =>
  testApp.app.inject({
    method: 'GET',
    url: '/dev/mail',
    remoteAddress,
    headers: { accept: 'application/json', ...headers },
  });

/** An address of this machine on a network (not loopback), if it has one. */
function networkAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return undefined;
}

describe('the development mailbox', () => {
  it('is open to this machine', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const response = await devMail(address);
      expect(response.statusCode, address).toBe(200);
      expect(response.json().messages[0].to).toBe('newcomer@example.com');
    }
  });

  it('refuses anyone on the network, with a message saying where to open it', async () => {
    const response = await devMail('192.168.1.20');
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(MESSAGES.devMailLoopbackOnly);
    expect(response.body).not.toContain('newcomer@example.com');
    const page = await devMail('10.0.0.5', { accept: 'text/html' });
    expect(page.statusCode).toBe(403);
  });

  it('decides from the socket, not from X-Forwarded-For, and refuses what came through a proxy', async () => {
    const forged = await devMail('192.168.1.20', { 'x-forwarded-for': '127.0.0.1' });
    expect(forged.statusCode).toBe(403);
    const proxied = await devMail('127.0.0.1', { 'x-forwarded-for': '192.168.1.20' });
    expect(proxied.statusCode).toBe(403);
    const forwarded = await devMail('127.0.0.1', { forwarded: 'for=192.168.1.20' });
    expect(forwarded.statusCode).toBe(403);
  });

  it.skipIf(!networkAddress())('refuses a real connection from a network address', async () => {
    const address = networkAddress()!;
    const { app } = await createTestApp();
    try {
      await app.listen({ host: '0.0.0.0', port: 0 });
      const { port } = app.server.address() as { port: number };
      const fromNetwork = await fetch(`http://${address}:${port}/dev/mail`, {
        headers: { accept: 'application/json' },
      });
      expect(fromNetwork.status).toBe(403);
      const fromHere = await fetch(`http://127.0.0.1:${port}/dev/mail`, {
        headers: { accept: 'application/json' },
      });
      expect(fromHere.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('knows the loopback addresses', () => {
    expect(isLoopbackAddress('127.3.4.5')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('1270.0.0.1')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});

describe('the address the server listens on', () => {
  const base = { SESSION_SECRET: 'test-secret-test-secret-test-secret-123' };

  it('is this machine only in development, everywhere in production, HOST when set', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/margins-test-unused' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATA_DIR: '/tmp/margins-test-unused', HOST: '0.0.0.0' }).host).toBe(
      '0.0.0.0',
    );
  });
});
