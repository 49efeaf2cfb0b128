import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The domain events as rows (events/outbox.ts): written by emit() in the writer's transaction,
 * marked dispatched once the after-commit subscribers have run. A row still undispatched after
 * a crash is dispatched by the recovery sweep (at least once); dispatched rows are pruned after
 * EVENT_RETENTION_DAYS. A later subscriber (audit log, search index) reads `name` + `payload`.
 */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The event type ("comment.created"…, events/definitions.ts). */
    name: text('name').notNull(),
    /** Its payload, checked against the type's zod schema when written and when read back. */
    payload: jsonb('payload').$type<unknown>().notNull(),
    /** Who did it (a user id), null for the system; no foreign key: the log outlives the user. */
    actorId: integer('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a recovery sweep took the row (another sweep leaves it alone for the lease). */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** When its after-commit subscribers had run; null: not yet (or the process died). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (table) => [
    index('events_undispatched_idx')
      .on(table.id)
      .where(sql`${table.dispatchedAt} IS NULL`),
    index('events_dispatched_idx')
      .on(table.dispatchedAt)
      .where(sql`${table.dispatchedAt} IS NOT NULL`),
  ],
);
