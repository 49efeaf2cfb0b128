// The event rows (the transactional outbox): what emit() writes in the writer's transaction and
// what the recovery sweep reads back when a process died between a commit and its dispatch.
import { and, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  EVENT_CLAIM_LEASE_SECONDS,
  EVENT_RECOVERY_BATCH,
  EVENT_RETENTION_DAYS,
} from '@margins/common';
import type { Db, Executor } from '../db/index.ts';
import { schema } from '../db/index.ts';
import type { DomainEvent, EventType } from './definitions.ts';

/** An event row as the sweep claims it: its payload not yet checked against its schema. */
export interface StoredEvent {
  id: number;
  name: string;
  payload: unknown;
  actorId: number | null;
}

/** Writes the events' rows in the writer's transaction, in one statement; returns their ids in order. */
export async function writeEventRows(tx: Executor, events: DomainEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await tx
    .insert(schema.events)
    .values(
      events.map((event) => ({
        name: event.type,
        payload: event.payload,
        actorId: event.actorId,
      })),
    )
    .returning({ id: schema.events.id });
  if (rows.length !== events.length) throw new Error('The event rows were not written');
  // One statement takes its ids from the sequence in the order of its rows.
  return rows.map((row) => row.id).sort((first, second) => first - second);
}

/**
 * The INSERT of an event's row for a data-modifying CTE: the change and its event in one
 * statement, committed together without a transaction's round trips (EventBus.emitWritten).
 * `payload` is a jsonb expression over the rows of `from`: one event row per row there.
 */
export function eventRowInsert(
  type: EventType,
  actorId: number | null,
  payload: SQL,
  from: SQL,
): SQL {
  const { events } = schema;
  return sql`INSERT INTO ${events} (${sql.identifier(events.name.name)}, ${sql.identifier(
    events.payload.name,
  )}, ${sql.identifier(events.actorId.name)})
    SELECT ${type}, ${payload}, ${actorId}::integer FROM ${from}
    RETURNING ${events.id}`;
}

/** Writes one event's row; returns its id. */
export async function writeEventRow(tx: Executor, event: DomainEvent): Promise<number> {
  const [id] = await writeEventRows(tx, [event]);
  return id!;
}

/** Marks rows whose after-commit subscribers have run. */
export async function markDispatched(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(schema.events)
    .set({ dispatchedAt: sql`now()` })
    .where(inArray(schema.events.id, ids));
}

/**
 * Claims up to a batch of undispatched rows older than `graceSeconds` (younger ones may still be
 * on their way in a live process), oldest first, in one statement: rows another process is
 * claiming at the same moment are skipped (SKIP LOCKED), and a claimed row is left alone for
 * the lease, so two sweeps never dispatch one row twice; a row whose sweep died is claimed again
 * after the lease (at least once).
 */
export async function claimUndispatched(
  db: Executor,
  graceSeconds: number,
): Promise<StoredEvent[]> {
  const { events } = schema;
  const result = await db.execute(sql`
    UPDATE ${events} SET claimed_at = now()
    WHERE ${events.id} IN (
      SELECT ${events.id} FROM ${events}
      WHERE ${events.dispatchedAt} IS NULL
        AND ${events.createdAt} < now() - make_interval(secs => ${graceSeconds})
        AND (${events.claimedAt} IS NULL
          OR ${events.claimedAt} < now() - make_interval(secs => ${EVENT_CLAIM_LEASE_SECONDS}))
      ORDER BY ${events.id}
      LIMIT ${EVENT_RECOVERY_BATCH}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, name, payload, actor_id AS "actorId"`);
  const rows = (result as unknown as { rows: StoredEvent[] }).rows;
  // bigserial comes back as a string from node-postgres; the ids fit a number (mode: 'number').
  return rows
    .map((row) => ({ ...row, id: Number(row.id) }))
    .sort((first, second) => first.id - second.id);
}

/** Deletes dispatched rows older than the retention; returns how many. */
export async function pruneDispatched(
  db: Db,
  retentionDays = EVENT_RETENTION_DAYS,
): Promise<number> {
  const { events } = schema;
  const pruned = await db
    .delete(events)
    .where(
      and(
        isNotNull(events.dispatchedAt),
        lt(events.dispatchedAt, sql`now() - make_interval(days => ${retentionDays})`),
      ),
    )
    .returning({ id: events.id });
  return pruned.length;
}
