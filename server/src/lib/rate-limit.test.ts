import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/index.ts';
import { rateLimits } from '../db/schema-limits.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { TestClient } from '../test/harness.ts';
import { RateLimiter } from './rate-limit.ts';

// Issue 9 item 4: with N `--role=web` processes each in-memory limit was N times looser.
// Two app instances on one database stand in for two processes: on PostgreSQL
// (TEST_DATABASE_URL) each has its own connection pool, as a process would; on PGlite they
// share the one embedded database.

const config = loadConfig({
  NODE_ENV: 'test',
  SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/tmp/margins-test-unused',
});

let databases: Database[] = [];
let apps: FastifyInstance[] = [];
let dropDatabase = async () => {};

/** Two databases handles on one PostgreSQL database, or one PGlite used twice. */
async function openShared(): Promise<[Database, Database]> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ memory: true });
    databases = [database];
    return [database, database];
  }
  const name = `margins_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  dropDatabase = async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const first = await openDatabase({ databaseUrl: url.toString() });
  const second = await openDatabase({ databaseUrl: url.toString() });
  databases = [first, second];
  return [first, second];
}

beforeAll(async () => {
  const [first, second] = await openShared();
  apps = [await buildApp(config, first), await buildApp(config, second)];
  await Promise.all(apps.map((app) => app.ready()));
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const database of databases) await database.close();
  await dropDatabase();
});

describe('rate limits shared by every process on the database', () => {
  it('counts the hits of both instances against one limit, atomically', async () => {
    const [a, b] = apps.map((app) => new RateLimiter(app.ctx.db, 'shared-test', 20, 60_000));
    const key = `user-${Date.now()}`;
    // 50 hits at once, alternating instances: exactly 20 pass (no lost update).
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 ? a! : b!).hit(key)),
    );
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(await a!.hit('another-key')).toBe(true);
  });

  it('starts a new window once the old one has ended, and reset forgets a key', async () => {
    const [a, b] = apps.map((app) => new RateLimiter(app.ctx.db, 'window-test', 2, 1_000));
    const now = Date.now();
    expect(await a!.hit('k', { now })).toBe(true);
    expect(await b!.hit('k', { now })).toBe(true);
    expect(await a!.hit('k', { now })).toBe(false);
    expect(await b!.hit('k', { now: now + 1_001 })).toBe(true);
    await a!.reset('k');
    expect(await b!.hit('k', { now: now + 1_002 })).toBe(true);
    expect(await b!.hit('k', { now: now + 1_002 })).toBe(true);
    expect(await b!.hit('k', { now: now + 1_002 })).toBe(false);
  });

  it('sweeps ended windows', async () => {
    const limiter = new RateLimiter(apps[0]!.ctx.db, 'sweep-test', 5, 1_000);
    await limiter.hit('old', { now: Date.now() - 120_000 });
    await limiter.hit('fresh');
    const rows = await apps[0]!.ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(eq(rateLimits.bucket, 'sweep-test'));
    expect(rows.map((row) => row.key)).toEqual(['fresh']);
  });

  it('throttles log-in failures from one instance on the other', async () => {
    const user = await buildUser(apps[0]!.ctx.db);
    const viaA = new TestClient(apps[0]!, '10.30.0.1');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await viaA.post('/auth/login', { email: user.email, password: 'wrong-one' });
      expect(wrong.statusCode).toBe(401);
    }
    const viaB = new TestClient(apps[1]!, '10.30.0.2');
    const refused = await viaB.post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(refused.statusCode).toBe(429);
  });

  it('counts comment writes of one user on both instances together', async () => {
    const [a, b] = apps.map((app) => app.ctx.limits.commentWritesPerUser);
    const key = `writer-${Date.now()}`;
    let allowed = 0;
    for (let hit = 0; hit < 130; hit++) if (await (hit % 2 ? a! : b!).hit(key)) allowed++;
    expect(allowed).toBe(120);
    // On the embedded database (one process) they are counted in memory: no row per write.
    const rows = await apps[0]!.ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(eq(rateLimits.bucket, 'comment-writes'));
    expect(rows.length).toBe(apps[0]!.ctx.database.kind === 'pglite' ? 0 : 1);
  });
});

describe('rate limits counted in the process (the embedded database)', () => {
  const limiters = (bucket: string, max: number, windowMs: number) =>
    apps.map((app) => new RateLimiter(app.ctx.db, bucket, max, windowMs, { inProcess: true }));

  it('counts every handle on one database against one limit, and writes no row', async () => {
    const [a, b] = limiters('memory-test', 20, 60_000);
    const key = `user-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 ? a! : b!).hit(key)),
    );
    // One database handle (PGlite): one count; two (PostgreSQL, two processes): each its own.
    const shared = apps[0]!.ctx.db === apps[1]!.ctx.db;
    expect(results.filter(Boolean)).toHaveLength(shared ? 20 : 40);
    expect(await a!.hit('another-key')).toBe(true);
    const rows = await apps[0]!.ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(eq(rateLimits.bucket, 'memory-test'));
    expect(rows).toEqual([]);
  });

  it('starts a new window once the old one has ended, reset forgets a key, buckets apart', async () => {
    const [a] = limiters('memory-window', 2, 1_000);
    const [other] = limiters('memory-other', 1, 1_000);
    const now = Date.now();
    expect(await a!.hit('k', { now })).toBe(true);
    expect(await a!.hit('k', { now })).toBe(true);
    expect(await a!.hit('k', { now })).toBe(false);
    expect(await other!.hit('k', { now })).toBe(true);
    expect(await a!.hit('k', { now: now + 1_000 })).toBe(true);
    await a!.reset('k');
    expect(await a!.hit('k', { now: now + 1_001 })).toBe(true);
    expect(await a!.hit('k', { now: now + 1_001 })).toBe(true);
    expect(await a!.hit('k', { now: now + 1_001 })).toBe(false);
    // A minute later the sweep drops ended windows; the key starts afresh.
    expect(await a!.hit('k', { now: now + 61_002 })).toBe(true);
  });
});
