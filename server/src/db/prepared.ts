import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Tx } from './index.ts';

const dialect = new PgDialect();

/** node-postgres's client of a transaction (the embedded database's handle has no `release`). */
interface PoolClient {
  release: () => void;
  query: (config: { name: string; text: string; values: unknown[] }) => Promise<unknown>;
}

function poolClientOf(tx: Tx): PoolClient | null {
  const client = (tx as unknown as { session?: { client?: Partial<PoolClient> } }).session?.client;
  return client && typeof client.release === 'function' && typeof client.query === 'function'
    ? (client as PoolClient)
    : null;
}

/**
 * Whether `executePrepared` plans a statement once per connection here: on a PostgreSQL server
 * (node-postgres), not on the embedded database (its queries are unnamed statements).
 */
export function preparesStatements(tx: Tx): boolean {
  return poolClientOf(tx) !== null;
}

/**
 * Runs a statement in a transaction as a named prepared statement on a PostgreSQL server, so
 * a large statement run often (Discover's search: 2–4 ms of planning) is planned once per
 * connection and text; the name is the text's hash, so the same text always has the same name.
 * The caller sets plan_cache_mode (force_generic_plan) if the plan may not depend on the
 * values. Elsewhere, as any statement. The result is node-postgres's or PGlite's, with `rows`.
 */
export async function executePrepared(tx: Tx, query: SQL): Promise<unknown> {
  const client = poolClientOf(tx);
  if (!client) return tx.execute(query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `m_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
  return client.query({ name, text, values: params });
}
