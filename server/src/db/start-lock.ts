import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * What processes that share a database must not do at the same time as they start: one key
 * each, so that a process migrating never waits for another's demo seed.
 */
export const START_LOCKS = {
  /** Migrations and pg-boss's schema and queues: CREATE TABLE run twice at once fails. */
  schema: 7_201_034_001,
  /** The demo data: made once, by whichever process gets there first. */
  demoSeed: 7_201_034_002,
} as const;

type StartLock = (typeof START_LOCKS)[keyof typeof START_LOCKS];

const pgliteTurns = new WeakMap<PGlite, Map<StartLock, Promise<unknown>>>();

/**
 * Runs `work` holding `lock`: on PostgreSQL a session advisory lock on a connection of its own
 * (every process started at once on an empty database waits here, then finds the work done); on
 * the embedded database, which one process owns, one turn at a time within it.
 */
export async function underStartLock<T>(
  database: { pool: pg.Pool | null; pglite: PGlite | null },
  lock: StartLock,
  work: () => Promise<T>,
): Promise<T> {
  if (database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [lock]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [lock]);
      }
    } finally {
      client.release();
    }
  }
  if (!database.pglite) return work();
  let turns = pgliteTurns.get(database.pglite);
  if (!turns) pgliteTurns.set(database.pglite, (turns = new Map()));
  const previous = turns.get(lock) ?? Promise.resolve();
  const mine = previous.catch(() => undefined).then(work);
  turns.set(lock, mine);
  return mine;
}
