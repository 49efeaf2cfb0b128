import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventTx } from '../context.ts';
import { schema } from '../db/index.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { EventBus } from './bus.ts';
import type { DomainEvent } from './definitions.ts';
import { eventRowInsert } from './outbox.ts';

/** The bus on a real app and database: when subscribers run, and what a rollback does. */
let test: TestApp;
let bus: EventBus;
const seen: string[] = [];

const archived = (manuscriptId: number): DomainEvent => ({
  type: 'manuscript.archived',
  actorId: null,
  payload: { manuscriptId },
});

beforeAll(async () => {
  test = await createTestApp();
  if (!(test.ctx.events instanceof EventBus)) throw new Error('ctx.events is not the EventBus');
  bus = test.ctx.events;
  bus.subscribe('manuscript.archived', {
    name: 'test subscriber',
    inTransaction: async (ctx, tx, event) => {
      // Sees the writer's uncommitted row: it runs in the same transaction.
      const users = await tx.select({ id: schema.users.id }).from(schema.users);
      seen.push(`in transaction ${event.payload.manuscriptId} (${users.length} users)`);
    },
    afterCommit: async (ctx, event) => {
      const users = await ctx.db.select({ id: schema.users.id }).from(schema.users);
      seen.push(`after commit ${event.payload.manuscriptId} (${users.length} users)`);
    },
  });
});

afterAll(async () => {
  await test?.close();
});

describe('EventBus', () => {
  it('runs in-transaction subscribers in the transaction and the others after its commit', async () => {
    seen.length = 0;
    const before = (await test.ctx.db.select().from(schema.users)).length;
    await bus.transaction(async (tx) => {
      await buildUser(tx);
      await bus.emit(tx, archived(7));
      // Not yet: the transaction has not committed.
      expect(seen).toEqual([`in transaction 7 (${before + 1} users)`]);
    });
    expect(seen).toEqual([
      `in transaction 7 (${before + 1} users)`,
      `after commit 7 (${before + 1} users)`,
    ]);
  });

  it('drops the events of a transaction that rolls back', async () => {
    seen.length = 0;
    const user = await buildUser(test.ctx.db);
    await expect(
      bus.transaction(async (tx) => {
        await tx.delete(schema.users).where(eq(schema.users.id, user.id));
        await bus.emit(tx, archived(8));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^in transaction 8/);
    const [still] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, user.id));
    expect(still?.id).toBe(user.id);
  });

  it('refuses ctx.db at run time too (a handle cast past the type), before any subscriber', async () => {
    seen.length = 0;
    await expect(bus.emit(test.ctx.db as unknown as EventTx, archived(9))).rejects.toThrow(
      /ctx\.events\.transaction/,
    );
    expect(seen).toEqual([]);
  });

  it("a transaction that joins the caller's runs in it: its events go out with that commit", async () => {
    seen.length = 0;
    await expect(
      bus.transaction(async (outer) => {
        const inner = await bus.transaction(async (tx) => {
          expect(tx).toBe(outer);
          await bus.emit(tx, archived(12));
          return 'inner';
        }, outer);
        expect(inner).toBe('inner');
        // Joined, not committed: nothing after commit yet.
        expect(seen.map((line) => line.split(' (')[0])).toEqual(['in transaction 12']);
        throw new Error('the outer change fails');
      }),
    ).rejects.toThrow('the outer change fails');
    // The outer rollback took the joined change's event with it.
    expect(seen.map((line) => line.split(' (')[0])).toEqual(['in transaction 12']);
  });

  it('emitWritten: a change and its event row in one statement, dispatched at once and marked', async () => {
    const heard: number[] = [];
    bus.subscribe('user.unsuspended', {
      name: 'test after commit only',
      afterCommit: (ctx, event) => void heard.push(event.payload.userId),
    });
    let eventId = 0;
    await bus.emitWritten('user.unsuspended', async () => {
      const result = (await test.ctx.db.execute(sql`
        WITH one AS (SELECT 31 AS user_id), event AS (${eventRowInsert(
          'user.unsuspended',
          null,
          sql`jsonb_build_object('userId', one.user_id)`,
          sql`one`,
        )})
        SELECT id FROM event`)) as unknown as { rows: Array<{ id: number | string }> };
      eventId = Number(result.rows[0]!.id);
      // Not yet: the subscribers run once the statement has answered.
      expect(heard).toEqual([]);
      return { type: 'user.unsuspended', actorId: null, payload: { userId: 31 }, eventId };
    });
    expect(heard).toEqual([31]);
    await bus.settled();
    const [row] = await test.ctx.db
      .select()
      .from(schema.events)
      .where(eq(schema.events.id, eventId));
    expect(row).toMatchObject({ name: 'user.unsuspended', payload: { userId: 31 } });
    expect(row?.dispatchedAt).toBeInstanceOf(Date);
  });

  it('emitWritten refuses, before writing, an event with in-transaction subscribers', async () => {
    seen.length = 0;
    let written = false;
    await expect(
      bus.emitWritten('manuscript.archived', async () => {
        written = true;
        return { ...archived(11), eventId: 1 };
      }),
    ).rejects.toThrow(/test subscriber runs in the writer's transaction/);
    // Refused before the write: nothing committed without its in-transaction part.
    expect(written).toBe(false);
    expect(seen).toEqual([]);
  });

  it('refuses a payload off its schema, and an emit inside a transaction it did not open', async () => {
    await expect(
      bus.transaction((tx) =>
        bus.emit(tx, { type: 'manuscript.archived', actorId: null, payload: { manuscriptId: -1 } }),
      ),
    ).rejects.toThrow();
    await expect(
      test.ctx.db.transaction((tx) => bus.emit(tx as EventTx, archived(10))),
    ).rejects.toThrow(/ctx\.events\.transaction/);
  });
});
