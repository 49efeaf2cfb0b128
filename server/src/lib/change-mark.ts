import { sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../db/index.ts';

// A change mark: a value that moves whenever anything may have been written to the database,
// so an answer computed under one mark is still exact while the mark has not moved (the
// caches of answer-cache.ts). It may move without a change (that only costs a recomputation);
// it never stays put across a committed write.
//
// On PostgreSQL it is the WAL insert position: every commit inserts a WAL record before its
// changes become visible, whichever process made it. Embedded (PGlite), every statement runs
// in this process through the PGlite instance, so a counter bumped after every statement that
// may write (anything but a plain SELECT) and after every transaction is the mark — no query
// at all, where even `select pg_current_wal_insert_lsn()` costs ~0.7 ms of the event loop.

interface Counter {
  value: number;
}
const counters = new WeakMap<PGlite, Counter>();

/** A plain read: one SELECT statement that calls nothing known to write. */
const PLAIN_SELECT = /^\s*select\b[^;]*;?\s*$/i;
/** A statement whose writes PostgreSQL counts (INSERT 0 0, UPDATE 0: nothing changed). */
const COUNTED_WRITE = /^\s*(with|insert|update|delete|merge)\b[^;]*;?\s*$/i;
/** Calls that write, or may: sequences, notifications, settings, and our own SQL functions. */
const WRITING_CALLS = /\b(nextval|setval|pg_notify|pg_advisory\w*|set_config|margins_\w+)\s*\(/i;

/** What a statement names after FROM, INTO, UPDATE or JOIN: the keyword and the name. */
const NAMED_TABLES = /\b(from|into|update|join)\s+([\w."]+)/gi;
/** The names a statement gives its own subqueries: `WITH next AS (`, `, batch AS (`. */
const CTE_NAMES =
  /(?:\bwith(?:\s+recursive)?|,)\s*("?\w+"?)\s+as\s+(?:(?:not\s+)?materialized\s+)?\(/gi;
/** A single SELECT, WITH, INSERT, UPDATE or DELETE (a `;` only at its end). */
const ONE_DATA_STATEMENT = /^\s*(select|with|insert|update|delete)\b[^;]*;?\s*$/i;
/** A SELECT's row-locking clause, whose UPDATE is no statement. */
const ROW_LOCK = /\bfor\s+(?:no\s+key\s+)?update\b/gi;
/** The job queue's own tables: no answer is made of them. */
const JOB_QUEUE_SCHEMA = /^"?pgboss"?\./i;

const unquoted = (name: string) => name.replaceAll('"', '').toLowerCase();

/**
 * True when the statement touches only the job queue's tables (its polls and upkeep): it names
 * one, and every other name it reads from is one of its own subqueries (`WITH next AS (…)
 * … FROM next`) or a function (`FROM json_to_recordset($1)`). Counted as a change before, the
 * queue's poll every few seconds dropped every kept answer (issue 18: a book's comment list was
 * built again for nearly every visit). What is written into (INTO, UPDATE) must be the queue's.
 */
export function onlyJobQueue(sql: string): boolean {
  // One plain statement: several, or DDL and the like, count as a change whatever they name.
  if (!ONE_DATA_STATEMENT.test(sql)) return false;
  // A row lock (`FOR UPDATE OF j SKIP LOCKED`) names no table to write.
  const statement = sql.replace(ROW_LOCK, ' ');
  const own = new Set([...statement.matchAll(CTE_NAMES)].map((match) => unquoted(match[1]!)));
  let queue = false;
  for (const match of statement.matchAll(NAMED_TABLES)) {
    const keyword = match[1]!.toLowerCase();
    const name = match[2]!;
    if (JOB_QUEUE_SCHEMA.test(name)) {
      queue = true;
      continue;
    }
    if (keyword === 'into' || keyword === 'update') return false;
    const next = statement.slice(match.index! + match[0].length).trimStart();
    if (next.startsWith('(') || own.has(unquoted(name))) continue;
    return false;
  }
  return queue;
}

/**
 * False only when the statement cannot have changed anything an answer is made of: a plain
 * SELECT, a counted write that reports no row changed (`INSERT … ON CONFLICT DO NOTHING` that
 * met one), or one of the job queue's statements on its own tables. Anything else — DDL,
 * several statements, a failure — counts as a change.
 */
function changedSomething(statement: unknown, result: unknown, failed: boolean): boolean {
  if (failed || typeof statement !== 'string' || WRITING_CALLS.test(statement)) return true;
  if (PLAIN_SELECT.test(statement) || onlyJobQueue(statement)) return false;
  const affected = (result as { affectedRows?: number } | undefined)?.affectedRows;
  return !(COUNTED_WRITE.test(statement) && affected === 0);
}

/** Wraps the instance's statement entry points (query, exec, transaction) to count writes. */
function counterOf(pglite: PGlite): Counter {
  const known = counters.get(pglite);
  if (known) return known;
  const counter: Counter = { value: 0 };
  counters.set(pglite, counter);
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  const transaction = pglite.transaction.bind(pglite);
  // Bumped after the statement (or the whole transaction) has finished: a request that read
  // the old mark either computed before the change was visible, or will miss next time.
  // query answers one result, exec one per statement (several statements count as a change).
  const counted =
    (run: (...args: unknown[]) => Promise<unknown>) =>
    async (statement: string, ...rest: unknown[]) => {
      let result: unknown;
      let failed = true;
      try {
        result = await run(statement, ...rest);
        failed = false;
        return result;
      } finally {
        const only = Array.isArray(result) && result.length === 1 ? result[0] : result;
        if (changedSomething(statement, only, failed)) counter.value++;
      }
    };
  pglite.query = counted(query as (...args: unknown[]) => Promise<unknown>) as PGlite['query'];
  pglite.exec = counted(exec as (...args: unknown[]) => Promise<unknown>) as PGlite['exec'];
  pglite.transaction = (async (...args: unknown[]) => {
    try {
      return await (transaction as (...args: unknown[]) => Promise<unknown>)(...args);
    } finally {
      counter.value++;
    }
  }) as PGlite['transaction'];
  return counter;
}

/** The database's change mark now (see above). */
export async function changeMark(database: Database): Promise<string> {
  if (database.pglite) return `c${counterOf(database.pglite).value}`;
  const result = await database.db.execute<{ mark: string }>(
    sql`select pg_current_wal_insert_lsn()::text as mark`,
  );
  const rows = (result as unknown as { rows?: Array<{ mark: string }> }).rows ?? [];
  return rows[0]?.mark ?? String(Date.now());
}
