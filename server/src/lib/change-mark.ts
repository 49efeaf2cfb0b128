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
// may have written (anything but a read, a write that changed no row, or the job queue's own
// statements) and after every transaction is the mark — no query at all, where even
// `select pg_current_wal_insert_lsn()` costs ~0.7 ms of the event loop.

/**
 * A view of the mark for answers that read none of some tables: a write known to touch only
 * those tables leaves it (embedded only; on PostgreSQL it is the whole mark). The comments list
 * reads nothing a reader's reading-time batch writes, and those batches come every few seconds
 * from everyone reading (issue 18: each one had every book's list built again).
 */
export interface MarkScope {
  readonly ignoring: ReadonlySet<string>;
}

/** Every scope made (markScope), each counted by every instance. */
const scopes: MarkScope[] = [];

/** A scope whose mark stays put across writes only to `tables` (names as in the database). */
export function markScope(tables: readonly string[]): MarkScope {
  const scope: MarkScope = { ignoring: new Set(tables.map((table) => table.toLowerCase())) };
  scopes.push(scope);
  return scope;
}

interface Counter {
  value: number;
  scoped: Map<MarkScope, number>;
}
const counters = new WeakMap<PGlite, Counter>();

/** Counts a change: `written` the tables it wrote, when known for sure, else null (anything). */
function bump(counter: Counter, written: ReadonlySet<string> | null): void {
  counter.value++;
  for (const scope of scopes) {
    if (written && [...written].every((table) => scope.ignoring.has(table))) continue;
    counter.scoped.set(scope, (counter.scoped.get(scope) ?? 0) + 1);
  }
}

/** A statement that may be a read: SELECT, or WITH (a read when it writes into nothing). */
const READ_FORM = /^\s*(select|with)\b/i;
/**
 * A statement whose writes PostgreSQL counts (INSERT 0 0, UPDATE 0: nothing changed). Not a
 * WITH: the count is its final statement's, so `WITH … (UPDATE …) SELECT …` says 0 changed.
 */
const COUNTED_WRITE = /^\s*(insert|update|delete|merge)\b[^;]*;?\s*$/i;
/** Calls that write something of ours: sequences, notifications, our own SQL functions. */
const OUR_CALLS = /\b(nextval|setval|pg_notify|margins_\w+)\s*\(/i;
/** Calls that change the session rather than the data (locks, settings): only the queue's pass. */
const SESSION_CALLS = /\b(pg_advisory\w*|set_config)\s*\(/i;
/** Whether a statement calls something that writes, or may. */
const callsWriter = (sql: string) => OUR_CALLS.test(sql) || SESSION_CALLS.test(sql);

/** What a statement names after FROM, INTO, UPDATE or JOIN: the keyword and the name. */
const NAMED_TABLES = /\b(from|into|update|join)\s+([\w."]+)/gi;
/** Whether a statement names any table at all (NAMED_TABLES, without its state). */
const NAMES_A_TABLE = /\b(from|into|update|join)\s/i;
/** The names a statement gives its own subqueries: `WITH next AS (`, `, batch AS (`. */
const CTE_NAMES =
  /(?:\bwith(?:\s+recursive)?|,)\s*("?\w+"?)\s+as\s+(?:(?:not\s+)?materialized\s+)?\(/gi;
/** A single SELECT, WITH, INSERT, UPDATE or DELETE (a `;` only at its end). */
const ONE_DATA_STATEMENT = /^\s*(select|with|insert|update|delete)\b[^;]*;?\s*$/i;
/** A SELECT's row-locking clause, whose UPDATE is no statement. */
const ROW_LOCK = /\bfor\s+(?:no\s+key\s+)?update\b/gi;
/** The job queue's own tables: no answer is made of them. */
const JOB_QUEUE_SCHEMA = /^"?pgboss"?\./i;
/** Whether a statement names the job queue's schema at all (most of ours do not: no split). */
const MENTIONS_JOB_QUEUE = /\bpgboss"?\./i;
/** PostgreSQL's own catalog and views (`pg_locks`, `pg_database`): no answer is made of them. */
const SYSTEM_CATALOG = /^"?(pg_\w+|pg_catalog\.[\w"]+|information_schema\.[\w"]+)"?$/i;
/** A comparison, `a IS NOT DISTINCT FROM b`, whose FROM is no table's. */
const DISTINCT_FROM = /\bdistinct\s+from\b/gi;
/** What may open, set up and close a transaction in a script: BEGIN, COMMIT, SET LOCAL x = 1. */
const TRANSACTION_CONTROL = /^(begin|commit|set\s+local\s+\w+\s*=\s*[\w']+)$/i;
/** A transaction's advisory lock, taken alone: `SELECT pg_advisory_xact_lock(…)`. */
const ADVISORY_LOCK = /^select\s+pg_(?:try_)?advisory_xact_lock\s*\(.*\)$/is;

/** What a statement writes into: INSERT (or SELECT) INTO, UPDATE, DELETE FROM, and the name. */
const WRITE_TARGETS = /\b(?:into|update|delete\s+from)\s+(?:only\s+)?([\w."]+)/gi;
/** An upsert's `DO UPDATE SET`, whose UPDATE names no table. */
const CONFLICT_UPDATE = /\bdo\s+update\s+set\b/gi;

const unquoted = (name: string) => name.replaceAll('"', '').toLowerCase();

/**
 * The tables one plain statement writes (without their `public.`), or null when that cannot be
 * told for sure: several statements, DDL, COPY, a call that may write anything (a sequence, a
 * function of ours). A trigger's writes are not in the statement: a scope must also ignore every
 * table its tables' triggers write (list-wire.test.ts checks the comment list's scope).
 */
export function writtenTables(sql: string): ReadonlySet<string> | null {
  if (!ONE_DATA_STATEMENT.test(sql) || callsWriter(sql)) return null;
  const tables = writeTargets(sql);
  return tables.size > 0 ? tables : null;
}

/** The names SQL writes into, without their `public.` (see writtenTables; tests read triggers). */
export function writeTargets(sql: string): Set<string> {
  const statement = sql.replace(ROW_LOCK, ' ').replace(CONFLICT_UPDATE, ' set ');
  const tables = new Set<string>();
  for (const match of statement.matchAll(WRITE_TARGETS)) {
    tables.add(unquoted(match[1]!).replace(/^public\./, ''));
  }
  return tables;
}

/**
 * True when the SQL touches only the job queue's tables (its polls and upkeep): each statement
 * names one, and every other name it reads from is one of its own subqueries (`WITH next AS
 * (…) … FROM next`), a function (`FROM json_to_recordset($1)`) or the system catalog
 * (`pg_locks`). Its upkeep comes as a script — `BEGIN; SET LOCAL …; SELECT
 * pg_advisory_xact_lock(…); DELETE FROM pgboss.job_common …; COMMIT;` — every 30 s. Counted as a
 * change before, the queue dropped every kept answer every few seconds (issue 18: a book's
 * comment list was built again for nearly every visit). What is written into (INTO, UPDATE)
 * must be the queue's.
 */
export function onlyJobQueue(sql: string): boolean {
  if (!MENTIONS_JOB_QUEUE.test(sql)) return false;
  const statements = statementsOf(sql);
  if (!statements) return false;
  let queue = false;
  for (const statement of statements) {
    if (TRANSACTION_CONTROL.test(statement)) continue;
    if (ADVISORY_LOCK.test(statement) && !NAMES_A_TABLE.test(statement)) continue;
    if (!jobQueueStatement(statement)) return false;
    queue = true;
  }
  return queue;
}

/** One statement of the queue's (see onlyJobQueue). */
function jobQueueStatement(sql: string): boolean {
  // One plain statement that calls nothing of ours: DDL and the like count as a change.
  if (!ONE_DATA_STATEMENT.test(sql) || OUR_CALLS.test(sql)) return false;
  // A row lock (`FOR UPDATE OF j SKIP LOCKED`) names no table to write, `IS DISTINCT FROM x`
  // no table to read.
  const statement = sql.replace(ROW_LOCK, ' ').replace(DISTINCT_FROM, ' ');
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
    if (next.startsWith('(') || own.has(unquoted(name)) || SYSTEM_CATALOG.test(name)) continue;
    return false;
  }
  return queue;
}

/**
 * The statements of a script, split at each `;` outside quotes; null when that cannot be told
 * plainly (comments, dollar quotes, backslash escapes, an open quote).
 */
function statementsOf(sql: string): string[] | null {
  if (/--|\/\*|\$\$|\bE'/i.test(sql)) return null;
  const statements: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let at = 0; at < sql.length; at++) {
    const char = sql[at]!;
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === ';') {
      statements.push(sql.slice(start, at));
      start = at + 1;
    }
  }
  if (quote) return null;
  statements.push(sql.slice(start));
  return statements.map((statement) => statement.trim()).filter(Boolean);
}

/**
 * False only when the statement cannot have changed anything an answer is made of: a read (one
 * SELECT or WITH … SELECT that writes into nothing), a counted write that reports no row changed
 * (`INSERT … ON CONFLICT DO NOTHING` that met one), or one of the job queue's statements on its
 * own tables. Anything else — DDL, several statements, a failure — counts as a change.
 */
function changedSomething(statement: unknown, result: unknown, failed: boolean): boolean {
  if (failed || typeof statement !== 'string') return true;
  if (onlyJobQueue(statement)) return false;
  if (callsWriter(statement)) return true;
  const read = READ_FORM.test(statement) && ONE_DATA_STATEMENT.test(statement);
  if (read && writeTargets(statement).size === 0) return false;
  const affected = (result as { affectedRows?: number } | undefined)?.affectedRows;
  return !(COUNTED_WRITE.test(statement) && affected === 0);
}

/** Wraps the instance's statement entry points (query, exec, transaction) to count writes. */
function counterOf(pglite: PGlite): Counter {
  const known = counters.get(pglite);
  if (known) return known;
  const counter: Counter = { value: 0, scoped: new Map() };
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
        if (changedSomething(statement, only, failed)) {
          bump(counter, !failed ? writtenTables(statement) : null);
        }
      }
    };
  pglite.query = counted(query as (...args: unknown[]) => Promise<unknown>) as PGlite['query'];
  pglite.exec = counted(exec as (...args: unknown[]) => Promise<unknown>) as PGlite['exec'];
  pglite.transaction = (async (...args: unknown[]) => {
    try {
      return await (transaction as (...args: unknown[]) => Promise<unknown>)(...args);
    } finally {
      bump(counter, null);
    }
  }) as PGlite['transaction'];
  return counter;
}

/** The database's change mark now (see above); for answers in `scope`, its view of it. */
export async function changeMark(database: Database, scope?: MarkScope): Promise<string> {
  if (database.pglite) {
    const counter = counterOf(database.pglite);
    return scope ? `s${counter.scoped.get(scope) ?? 0}` : `c${counter.value}`;
  }
  const result = await database.db.execute<{ mark: string }>(
    sql`select pg_current_wal_insert_lsn()::text as mark`,
  );
  const rows = (result as unknown as { rows?: Array<{ mark: string }> }).rows ?? [];
  return rows[0]?.mark ?? String(Date.now());
}
