import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '../db/index.ts';
import { openTestDatabase } from '../db/test-db.ts';
import { createTestApp } from '../test/harness.ts';
import { sharedSessionSecret } from './server-secrets.ts';

const OLD = 'the-old-secret-the-old-secret-the-old';
const NEW = 'the-new-secret-the-new-secret-the-new';

describe('the shared session secret', () => {
  let database: Database;
  let dir: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'margins-secrets-'));
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is made once for the database: processes starting together all get the same', async () => {
    const secrets = await Promise.all(
      Array.from({ length: 4 }, () => sharedSessionSecret(database.db, dir)),
    );
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(new Set(secrets).size).toBe(1);
    // Another DATA_DIR on the same database (another process) reads the same one.
    expect(await sharedSessionSecret(database.db, tmpdir())).toBe(secrets[0]);
  });

  it('carries over the secret an earlier version kept in DATA_DIR', async () => {
    const other = await openTestDatabase();
    try {
      writeFileSync(path.join(dir, 'session-secret'), `${OLD}\n`);
      expect(await sharedSessionSecret(other.db, dir)).toBe(OLD);
    } finally {
      await other.close();
    }
  });
});

describe('a key rotation', () => {
  it('signs with the new secret and still accepts what the old one signed', async () => {
    const before = await createTestApp({ sessionSecret: OLD });
    const signedBefore = before.app.signCookie('a-session');
    await before.close();
    const rotating = await createTestApp({ sessionSecret: NEW, previousSessionSecrets: [OLD] });
    const after = await createTestApp({ sessionSecret: NEW });
    try {
      expect(rotating.app.unsignCookie(signedBefore)).toMatchObject({
        valid: true,
        value: 'a-session',
      });
      expect(rotating.app.signCookie('x')).toBe(after.app.signCookie('x'));
      // Once the rotation is over, the old signature is refused.
      expect(after.app.unsignCookie(signedBefore).valid).toBe(false);
    } finally {
      await Promise.all([rotating.close(), after.close()]);
    }
  });

  it('without SESSION_SECRET, two apps on one database accept each other’s cookies', async () => {
    const shared = await openTestDatabase();
    const keep = { ...shared, close: async () => undefined };
    const first = await createTestApp({ sessionSecret: '' }, async () => keep);
    const second = await createTestApp({ sessionSecret: '' }, async () => keep);
    try {
      expect(second.app.unsignCookie(first.app.signCookie('a-session')).valid).toBe(true);
      expect(first.ctx.config.sessionSecret).not.toBe('');
    } finally {
      await first.close();
      await second.close();
      await shared.close();
    }
  });
});
