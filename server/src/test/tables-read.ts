import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { AppContext } from '../context.ts';
import { schema, type Db } from '../db/index.ts';

/** What a computation read and wrote, as the database counted it. */
interface TablesTouched {
  read: Set<string>;
  written: Set<string>;
}

/**
 * The application tables a computation reads (and writes), as PostgreSQL itself counts them:
 * its statements are recorded through a database handle of their own (a Proxy over PGlite, so
 * the app's background work is not in it), then each is run again in a transaction that is
 * rolled back, and the transaction's own table statistics (pg_stat_xact_user_tables: scans,
 * rows written) name what it touched — functions, subqueries, views and triggers included.
 * A kept value's declared tables must hold every table read (lib/cache). Embedded only.
 */
export async function tablesTouched(
  ctx: AppContext,
  compute: (ctx: AppContext) => Promise<unknown>,
): Promise<TablesTouched> {
  const pglite = ctx.database.pglite;
  if (!pglite) throw new Error('tablesTouched runs on the embedded database');
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const recording = new Proxy(pglite, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'query') return value.bind(target);
      return (sql: string, params: unknown[] = [], ...rest: unknown[]) => {
        statements.push({ sql, params });
        return (value as (...args: unknown[]) => unknown).call(target, sql, params, ...rest);
      };
    },
  });
  const db = drizzle(recording as PGlite, { schema }) as unknown as Db;
  await compute({ ...ctx, db });
  const touched: TablesTouched = { read: new Set(), written: new Set() };
  for (const { sql, params } of statements) {
    await pglite.transaction(async (tx) => {
      // The view holds the backend's counts not yet flushed, of earlier transactions too:
      // what this statement did is the difference.
      const before = await countsOf(tx);
      await tx.query(sql, params);
      const after = await countsOf(tx);
      for (const [table, count] of after) {
        const earlier = before.get(table) ?? { reads: 0, writes: 0 };
        if (count.reads > earlier.reads) touched.read.add(table);
        if (count.writes > earlier.writes) touched.written.add(table);
      }
      await tx.rollback();
    });
  }
  return touched;
}

type Counts = Map<string, { reads: number; writes: number }>;

async function countsOf(tx: Pick<PGlite, 'query'>): Promise<Counts> {
  const { rows } = await tx.query<{ table: string; reads: number; writes: number }>(
    `select relname as table,
            (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as reads,
            (n_tup_ins + n_tup_upd + n_tup_del)::int as writes
       from pg_stat_xact_user_tables where schemaname = 'public'`,
  );
  return new Map(rows.map((row) => [row.table, { reads: row.reads, writes: row.writes }]));
}
