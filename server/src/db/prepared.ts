import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db } from './index.ts';

const dialect = new PgDialect();

/** Settings (GUCs) a statement is planned and run with; values are ours, never a user's. */
type SessionSettings = Readonly<Record<string, string>>;

/** Pools of sessions with settings of their own, per main pool (see runWithSettings). */
const sessionPools = new WeakMap<pg.Pool, Map<string, pg.Pool>>();
/** Sessions kept per set of settings: a few searches at once; more wait their turn. */
const SESSIONS_PER_SETTINGS = 3;

function poolOf(db: Db): pg.Pool | null {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client as
    (pg.Pool & { options?: pg.PoolConfig }) | undefined;
  // node-postgres's pool (the embedded database's handle has no `totalCount`).
  return client && typeof client.totalCount === 'number' && client.options ? client : null;
}

function sessionPool(main: pg.Pool & { options?: pg.PoolConfig }, settings: SessionSettings) {
  let pools = sessionPools.get(main);
  if (!pools) {
    pools = new Map();
    sessionPools.set(main, pools);
  }
  const key = JSON.stringify(settings);
  let pool = pools.get(key);
  if (!pool) {
    const PoolClass = main.constructor as typeof pg.Pool;
    // Planned once per session, for any values: the settings make the plan (indexes only).
    const all = { ...settings, plan_cache_mode: 'force_generic_plan' };
    pool = new PoolClass({
      ...main.options,
      max: SESSIONS_PER_SETTINGS,
      // Kept open: a new session loads the dictionaries and plans the statement again (tens
      // of ms), which a search now and then would otherwise pay every time.
      idleTimeoutMillis: 0,
      options: Object.entries(all)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    });
    pool.on('error', () => undefined);
    pools.set(key, pool);
  }
  return pool;
}

/** Ends the sessions runWithSettings opened for this pool (when the database is closed). */
export async function endSessionPools(main: pg.Pool): Promise<void> {
  const pools = sessionPools.get(main);
  sessionPools.delete(main);
  await Promise.all([...(pools?.values() ?? [])].map((pool) => pool.end()));
}

/**
 * Runs a statement planned and run with its own settings (Discover's search: no sequential
 * scans, no JIT, no parallel workers, its trigram thresholds), in one round trip.
 *
 * - On a PostgreSQL server: in a session opened with those settings (a few such sessions are
 *   kept per set), as a named prepared statement (the name is the text's hash) planned once
 *   per session: no transaction, no SET, no planning on the way.
 * - On the embedded database (one session): in a transaction that sets them first (SET LOCAL).
 *
 * The answer is node-postgres's or PGlite's, with `rows`.
 */
export async function runWithSettings(
  db: Db,
  settings: SessionSettings,
  statement: SQL,
): Promise<unknown> {
  const main = poolOf(db);
  if (!main) {
    return db.transaction(async (tx) => {
      await tx.execute(
        sql`select ${sql.join(
          Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
          sql`, `,
        )}`,
      );
      return tx.execute(statement);
    });
  }
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const name = `m_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
  return sessionPool(main, settings).query({ name, text, values: params });
}
