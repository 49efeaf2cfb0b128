import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_RETENTION_DAYS } from '@margins/common';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, schema, type Database, type Db } from '../db/index.ts';
import { buildUser } from '../test/factories.ts';
import { EventBus } from './bus.ts';
import type { DomainEvent } from './definitions.ts';
import { claimUndispatched, writeEventRow } from './outbox.ts';

// Event rows (issue 9 item 2): written in the writer's transaction, dispatched after commit,
// recovered after a crash (at least once, never twice by two processes), pruned after the
// retention. Two app instances on one database stand in for two processes: on PostgreSQL
// (TEST_DATABASE_URL) each has its own connection pool; on PGlite they share the database.

const config = loadConfig({
  NODE_ENV: 'test',
  SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/tmp/margins-test-unused',
});

let databases: Database[] = [];
let apps: FastifyInstance[] = [];
let dropDatabase = async () => {};
/** Manuscript ids each instance's test subscriber saw after commit, in order. */
const seen: [number[], number[]] = [[], []];

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
  databases = [
    await openDatabase({ databaseUrl: url.toString() }),
    await openDatabase({ databaseUrl: url.toString() }),
  ];
  return [databases[0]!, databases[1]!];
}

function busOf(app: FastifyInstance): EventBus {
  if (!(app.ctx.events instanceof EventBus)) throw new Error('ctx.events is not the EventBus');
  return app.ctx.events;
}

// A gate change: its only other subscriber re-checks a room nobody is in.
const gateChanged = (manuscriptId: number): DomainEvent => ({
  type: 'manuscript.gate_changed',
  actorId: null,
  payload: { manuscriptId },
});

/** Event rows as a process that died right after its commit left them: undispatched, old. */
async function leftByACrash(db: Db, manuscriptIds: number[], ageSeconds = 120): Promise<number[]> {
  const ids = await db.transaction(async (tx) => {
    const written: number[] = [];
    for (const id of manuscriptIds) written.push(await writeEventRow(tx, gateChanged(id)));
    return written;
  });
  await db
    .update(schema.events)
    .set({ createdAt: sql`now() - make_interval(secs => ${ageSeconds})` })
    .where(inArray(schema.events.id, ids));
  return ids;
}

async function rowsOf(db: Db, ids: number[]) {
  return db.select().from(schema.events).where(inArray(schema.events.id, ids));
}

beforeAll(async () => {
  const [first, second] = await openShared();
  apps = [await buildApp(config, first), await buildApp(config, second)];
  await Promise.all(apps.map((app) => app.ready()));
  apps.forEach((app, index) =>
    busOf(app).subscribe('manuscript.gate_changed', {
      name: 'test subscriber',
      afterCommit: (_ctx, event) => void seen[index as 0 | 1].push(event.payload.manuscriptId),
    }),
  );
});

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const database of databases) await database.close();
  await dropDatabase();
});

const reset = () => seen.forEach((list) => (list.length = 0));
/**
 * What both instances dispatched, in order: the scheduled sweep (dispatch-events) may run in
 * either instance during a test, so which one dispatched a recovered row is not the point.
 */
const dispatched = () => [...seen[0], ...seen[1]].sort((first, second) => first - second);

describe('event rows', () => {
  it('writes the rows in the transaction and marks them dispatched after commit', async () => {
    reset();
    const [app] = apps;
    const db = app!.ctx.db;
    await busOf(app!).transaction(async (tx) => {
      await busOf(app!).emit(tx, gateChanged(101));
      await busOf(app!).emit(tx, gateChanged(103));
    });
    expect(seen[0]).toEqual([101, 103]);
    expect(seen[1]).toEqual([]);
    await busOf(app!).settled();
    const rows = await db
      .select()
      .from(schema.events)
      .where(
        sql`${schema.events.payload} IN (${JSON.stringify({ manuscriptId: 101 })}::jsonb, ${JSON.stringify({ manuscriptId: 103 })}::jsonb)`,
      )
      .orderBy(schema.events.id);
    expect(
      rows.map((row) => [row.name, (row.payload as { manuscriptId: number }).manuscriptId]),
    ).toEqual([
      ['manuscript.gate_changed', 101],
      ['manuscript.gate_changed', 103],
    ]);
    expect(rows.every((row) => row.dispatchedAt instanceof Date)).toBe(true);
  });

  it('marks the rows of writes following each other closely in one statement', async () => {
    const [app] = apps;
    const bus = busOf(app!);
    // Three writes 5 ms apart, as a room's comments arrive (separate turns of the event loop).
    for (const manuscriptId of [111, 112, 113]) {
      await bus.transaction(async (tx) => bus.emit(tx, gateChanged(manuscriptId)));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await bus.settled();
    const rows = await app!.ctx.db
      .select({ dispatchedAt: schema.events.dispatchedAt })
      .from(schema.events)
      .where(
        sql`${schema.events.payload}->>'manuscriptId' IN ('111', '112', '113') AND ${schema.events.name} = 'manuscript.gate_changed'`,
      );
    expect(rows).toHaveLength(3);
    // Marked together: one now() per UPDATE, so fewer times than rows (one mark per write would
    // give three; a window boundary falling between them, on a slow machine, two).
    expect(new Set(rows.map((row) => row.dispatchedAt?.toISOString())).size).toBeLessThan(3);
    expect(rows[0]!.dispatchedAt).toBeInstanceOf(Date);
  });

  it('never dispatches an event written in a transaction that rolled back', async () => {
    reset();
    const [app] = apps;
    const bus = busOf(app!);
    const user = await buildUser(app!.ctx.db);
    await expect(
      bus.transaction(async (tx) => {
        await tx.delete(schema.users).where(eq(schema.users.id, user.id));
        await bus.emit(tx, gateChanged(102));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // No row survives the rollback, so no sweep can ever dispatch it.
    const rows = await app!.ctx.db
      .select()
      .from(schema.events)
      .where(sql`${schema.events.payload} = ${JSON.stringify({ manuscriptId: 102 })}::jsonb`);
    expect(rows).toEqual([]);
    await bus.recover({ graceSeconds: 0 });
    expect(dispatched()).toEqual([]);
  });

  it('dispatches a row left undispatched by a crash once, however often recovery runs', async () => {
    reset();
    const [app] = apps;
    const db = app!.ctx.db;
    const ids = await leftByACrash(db, [201, 202, 203]);
    const bus = busOf(app!);
    await Promise.all([bus.recover(), bus.recover()]);
    await bus.recover({ graceSeconds: 0 });
    expect(dispatched()).toEqual([201, 202, 203]);
    const rows = await rowsOf(db, ids);
    expect(rows.every((row) => row.dispatchedAt !== null)).toBe(true);
  });

  it('leaves a young undispatched row to the live process that may be dispatching it', async () => {
    reset();
    const [app] = apps;
    const ids = await leftByACrash(app!.ctx.db, [301], 1);
    expect(await busOf(app!).recover()).toBe(0);
    expect(dispatched()).toEqual([]);
    await busOf(app!).recover({ graceSeconds: 0 });
    expect(dispatched()).toEqual([301]);
    expect((await rowsOf(app!.ctx.db, ids))[0]?.dispatchedAt).toBeInstanceOf(Date);
  });

  it('dispatches each recovered row in one process only when two recover at once (SKIP LOCKED)', async () => {
    reset();
    const [first, second] = apps;
    const manuscriptIds = Array.from({ length: 60 }, (_, index) => 1000 + index);
    const ids = await leftByACrash(first!.ctx.db, manuscriptIds);
    await Promise.all([
      busOf(first!).recover(),
      busOf(second!).recover(),
      busOf(first!).recover(),
      busOf(second!).recover(),
    ]);
    expect(dispatched()).toEqual(manuscriptIds);
    const rows = await rowsOf(first!.ctx.db, ids);
    expect(rows.filter((row) => row.dispatchedAt === null)).toEqual([]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'skips rows another process is claiming right now instead of waiting for them (PostgreSQL)',
    async () => {
      reset();
      const [first, second] = apps;
      const ids = await leftByACrash(first!.ctx.db, [701, 702]);
      await first!.ctx.db.transaction(async (tx) => {
        // The first process has claimed the rows, and not committed yet.
        const claimed = await claimUndispatched(tx, 0);
        expect(claimed.map((row) => row.id)).toEqual(ids);
        const waited = new Promise<'blocked'>((resolve) =>
          setTimeout(() => resolve('blocked'), 5_000),
        );
        const recovered = await Promise.race([busOf(second!).recover(), waited]);
        expect(recovered).toBe(0);
      });
      expect(dispatched()).toEqual([]);
    },
  );

  it('claims a row again when the sweep that claimed it died (after the lease)', async () => {
    reset();
    const [app] = apps;
    const db = app!.ctx.db;
    const ids = await leftByACrash(db, [401]);
    await db
      .update(schema.events)
      .set({ claimedAt: sql`now() - interval '1 minute'` })
      .where(inArray(schema.events.id, ids));
    expect(await busOf(app!).recover()).toBe(0);
    expect(dispatched()).toEqual([]);
    await db
      .update(schema.events)
      .set({ claimedAt: sql`now() - interval '1 day'` })
      .where(inArray(schema.events.id, ids));
    await busOf(app!).recover();
    expect(dispatched()).toEqual([401]);
  });

  it('prunes dispatched rows past the retention and keeps the rest', async () => {
    const [app] = apps;
    const db = app!.ctx.db;
    const [old, recent, pending] = await leftByACrash(db, [501, 502, 503]);
    await db
      .update(schema.events)
      .set({
        dispatchedAt: sql`now() - make_interval(days => ${EVENT_RETENTION_DAYS}, hours => 1)`,
      })
      .where(eq(schema.events.id, old!));
    await db
      .update(schema.events)
      .set({ dispatchedAt: sql`now() - interval '1 hour'` })
      .where(eq(schema.events.id, recent!));
    expect(await busOf(app!).prune()).toBeGreaterThanOrEqual(1);
    const left = (await rowsOf(db, [old!, recent!, pending!])).map((row) => row.id).sort();
    expect(left).toEqual([recent!, pending!].sort());
  });

  it('dispatches what a crash left behind when a process starts', async () => {
    reset();
    const [database] = databases;
    const ids = await leftByACrash(database!.db, [601]);
    const restarted = await buildApp(config, database!);
    try {
      await restarted.ready();
      // No subscriber of the test on the new instance: the row is what tells.
      const [row] = await rowsOf(database!.db, ids);
      expect(row?.dispatchedAt).toBeInstanceOf(Date);
    } finally {
      await restarted.close();
    }
  });
});
