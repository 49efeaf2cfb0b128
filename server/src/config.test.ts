import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'margins-config-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const SECRET = 's'.repeat(40);

/** The ConfigError message of a bad environment (fails the test when none is thrown). */
function configErrorOf(environment: NodeJS.ProcessEnv): string {
  try {
    loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ...environment });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
      invitesEnabled: false,
      productsEnabled: true,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('reads the variables of API.md', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PORT: '4100',
      PUBLIC_URL: 'https://margins.example/',
      DATABASE_URL: 'postgres://u:p@db.example:5432/margins',
      SMTP_URL: 'smtp://mail.example:25',
      INVITES_ENABLED: 'true',
      PRODUCTS_ENABLED: '0',
      SESSION_SECRET: SECRET,
    });
    expect(config).toMatchObject({
      port: 4100,
      publicUrl: 'https://margins.example',
      databaseUrl: 'postgres://u:p@db.example:5432/margins',
      smtpUrl: 'smtp://mail.example:25',
      invitesEnabled: true,
      productsEnabled: false,
      sessionSecret: SECRET,
    });
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '', DATABASE_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'not-a-port'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'mysql://localhost/margins'],
    ['DATABASE_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://margins.example'],
    ['SMTP_URL', 'http://mail.example'],
    ['NODE_ENV', 'staging'],
    ['INVITES_ENABLED', 'maybe'],
    ['STRIPE_SECRET_KEY', 'pk_live_123'],
    ['SESSION_SECRET', 'short'],
    ['TRUST_PROXY', 'everyone'],
    ['TRUST_PROXY', '2'],
    ['METRICS_TOKEN', 'too-short'],
  ])('a bad %s stops with one line naming it (%j)', (variable, value) => {
    const message = configErrorOf({ [variable]: value });
    expect(message.startsWith(`Configuration error: ${variable} `)).toBe(true);
    expect(message).not.toContain('\n');
    // Never echo a secret or a connection string back.
    if (['SESSION_SECRET', 'DATABASE_URL', 'METRICS_TOKEN'].includes(variable)) {
      expect(message).not.toContain(value);
    }
  });

  it('believes X-Forwarded-For only from a proxy on this machine unless told', () => {
    const trust = (value?: string) =>
      loadConfig({ DATA_DIR: tempDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) })
        .trustProxy;
    expect(trust()).toBe('loopback');
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('10.0.0.0/8, 127.0.0.1, ::1')).toBe('10.0.0.0/8,127.0.0.1,::1');
    expect(trust('loopback,uniquelocal')).toBe('loopback,uniquelocal');
  });

  it('refuses production without SESSION_SECRET', () => {
    const dir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrowError(
      new ConfigError('Configuration error: SESSION_SECRET must be set in production'),
    );
    // and does not write a generated secret there either
    expect(() => statSync(path.join(dir, 'session-secret'))).toThrow();
    expect(
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, SESSION_SECRET: SECRET }).sessionSecret,
    ).toBe(SECRET);
  });

  it('leaves an unset session secret to the database outside production, writing no file', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.sessionSecret).toBe('');
    expect(() => statSync(path.join(dir, 'session-secret'))).toThrow();
    const rotating = loadConfig({
      DATA_DIR: dir,
      SESSION_SECRET: SECRET,
      SESSION_SECRET_PREVIOUS: 'an-older-secret-an-older-secret-123',
    });
    expect(rotating.previousSessionSecrets).toEqual(['an-older-secret-an-older-secret-123']);
    expect(() => loadConfig({ DATA_DIR: dir, SESSION_SECRET_PREVIOUS: 'short' })).toThrow(
      /SESSION_SECRET_PREVIOUS must be at least 32 characters/,
    );
  });
});

describe('the server start', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

  it('stops with one line naming the bad variable and exit code 1', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'server/src/main.ts')],
      {
        cwd: root,
        env: { PATH: process.env.PATH, PORT: 'eighty', DATA_DIR: tempDir() },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Configuration error: PORT /),
    ]);
  });
});
