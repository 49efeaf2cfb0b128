// Shared set-up of the realtime benchmarks: a real server (buildApp + listen on 127.0.0.1),
// users with sessions written straight to the database, and socket clients in worker threads
// (so the clients' work does not run on the server's event loop).
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { sign } from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import { SESSION_COOKIE } from '@margins/common';
import { buildApp } from '../server/src/app.ts';
import { RateLimiter } from '../server/src/lib/rate-limit.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase, schema, type Database } from '../server/src/db/index.ts';
import { hashToken, randomToken } from '../server/src/lib/tokens.ts';
import { openEmbeddedOnDisk } from './embedded-db.ts';

const BENCH_HTML = [
  '<h1 id="b-title-0">Chapter One</h1>',
  ...Array.from(
    { length: 40 },
    (_, index) =>
      `<p id="b-p${index}-0">Paragraph ${index}: the archivist kept the old charts in drawers that smelled of cedar and river damp, and nobody asked why.</p>`,
  ),
  '',
].join('\n');

/** Every benchmark server signs cookies with this (two processes must agree). */
export const BENCH_SESSION_SECRET = 'bench-secret-bench-secret-bench-secret-123';

/** Signs a session token as the servers do (@fastify/cookie). */
const signSession = (token: string): string => sign(token, BENCH_SESSION_SECRET);

interface BenchServer {
  baseUrl: string;
  database: Database;
  app: Awaited<ReturnType<typeof buildApp>>;
  close(): Promise<void>;
}

/** The app on a fresh database: in-memory PGlite, or PostgreSQL at DATABASE_URL. */
export async function startServer(
  databaseUrl = process.env.DATABASE_URL,
  port = Number(process.env.BENCH_PORT ?? 0),
): Promise<BenchServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: BENCH_SESSION_SECRET,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/margins-bench-unused',
    SEED_DEMO: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = databaseUrl
    ? await openDatabase({ databaseUrl })
    : await openEmbeddedOnDisk('bench');
  const app = await buildApp(config, database);
  // The benchmark clients are scripts writing as fast as the server answers, by design: the
  // per-user write limit (120 a minute, far above any reader) would measure itself, not the server.
  // The count is still kept (where production keeps it: in this process on PGlite, in the
  // database on PostgreSQL), it just never refuses.
  app.ctx.limits.commentWritesPerUser = new RateLimiter(
    database.db,
    'bench-comment-writes',
    Number.MAX_SAFE_INTEGER,
    60_000,
    { inProcess: database.kind === 'pglite' },
  );
  await app.listen({ port, host: '127.0.0.1' });
  const { port: bound } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${bound}`,
    database,
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** `count` users, each with a session; returns their ids and signed cookie headers. */
export async function createPeople(
  database: Database,
  count: number,
  prefix = 'bench',
): Promise<Array<{ id: number; cookie: string }>> {
  const { db } = database;
  const people: Array<{ id: number; cookie: string }> = [];
  for (let from = 0; from < count; from += 500) {
    const size = Math.min(500, count - from);
    const users = await db
      .insert(schema.users)
      .values(
        Array.from({ length: size }, (_, index) => ({
          email: `${prefix}-${from + index}-${randomToken(4)}@bench.test`,
          passwordHash: 'not-a-real-hash',
          displayName: `Reader ${from + index}`,
          handle: `${prefix}_${from + index}_${randomToken(3).replace(/[^a-zA-Z0-9]/g, 'x')}`,
          emailVerifiedAt: new Date(),
          signupCompletedAt: new Date(),
        })),
      )
      .returning({ id: schema.users.id });
    const tokens = users.map(() => randomToken());
    await db.insert(schema.sessions).values(
      users.map((user, index) => ({
        id: hashToken(tokens[index]!),
        userId: user.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    );
    users.forEach((user, index) => {
      const signed = encodeURIComponent(signSession(tokens[index]!));
      people.push({ id: user.id, cookie: `${SESSION_COOKIE}=${signed}` });
    });
  }
  return people;
}

/** A converted manuscript owned by `ownerId` (straight to the database, no upload). */
export async function createManuscript(
  database: Database,
  ownerId: number,
  overrides: Partial<typeof schema.manuscripts.$inferInsert> = {},
): Promise<number> {
  const { db } = database;
  const [manuscript] = await db
    .insert(schema.manuscripts)
    .values({ userId: ownerId, title: 'Bench', inking: false, visibility: 'public', ...overrides })
    .returning();
  const [version] = await db
    .insert(schema.manuscriptVersions)
    .values({
      manuscriptId: manuscript!.id,
      number: 1,
      sourceFormat: 'html',
      fileName: 'bench.html',
      html: BENCH_HTML,
      toc: [],
      words: 1000,
    })
    .returning();
  await db
    .update(schema.manuscripts)
    .set({ currentVersionId: version!.id })
    .where(eq(schema.manuscripts.id, manuscript!.id));
  return manuscript!.id;
}

/** Starts a worker thread on a TypeScript file (it registers tsx first), with workerData. */
export function startWorker(file: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(file.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** The next message of a given type from a worker. */
export function nextMessage<T extends { type: string }>(
  worker: Worker,
  type: T['type'],
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      if (message.type !== type) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve(message);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

/** The p-th percentile (0–100) of some numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** A wall-clock time in ms, comparable between worker threads (sub-millisecond). */
export const now = (): number => performance.timeOrigin + performance.now();

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
