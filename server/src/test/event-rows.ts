import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { schema, type Executor } from '../db/index.ts';
import type { EventType } from '../events/definitions.ts';

type Rows<Row> = { rows: Row[] };

/**
 * The transaction that last wrote the row (PostgreSQL's xmin, as text): two rows with the same
 * one were committed together, so neither exists without the other.
 */
export async function writtenBy(db: Executor, table: PgTable, where: SQL): Promise<string> {
  const result = (await db.execute(
    sql`SELECT xmin::text AS xid FROM ${table} WHERE ${where}`,
  )) as unknown as Rows<{ xid: string }>;
  if (result.rows.length !== 1) throw new Error(`expected one row, found ${result.rows.length}`);
  return result.rows[0]!.xid;
}

/**
 * Notes, for every event row written from now on, the transaction that wrote it: the row's own
 * xmin changes when the bus marks it dispatched a moment later. Once per test database.
 */
export async function noteEventWriters(db: Executor): Promise<void> {
  await db.execute(
    sql`CREATE TABLE test_event_writers (event_id bigint PRIMARY KEY, xid text NOT NULL)`,
  );
  await db.execute(sql`
    CREATE FUNCTION test_note_event_writer() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO test_event_writers VALUES (NEW.id, pg_current_xact_id()::xid::text);
      RETURN NULL;
    END $$`);
  await db.execute(sql`
    CREATE TRIGGER test_note_event_writer AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION test_note_event_writer()`);
}

/**
 * The newest event row of this type: its payload and the transaction that wrote it (as
 * noteEventWriters noted it).
 */
export async function lastEvent(
  db: Executor,
  type: EventType,
): Promise<{ payload: unknown; writtenBy: string }> {
  const { events } = schema;
  const result = (await db.execute(sql`
    SELECT ${events.payload} AS payload, writer.xid FROM ${events}
    JOIN test_event_writers writer ON writer.event_id = ${events.id}
    WHERE ${events.name} = ${type} ORDER BY ${events.id} DESC LIMIT 1`)) as unknown as Rows<{
    payload: unknown;
    xid: string;
  }>;
  const [row] = result.rows;
  if (!row) throw new Error(`no ${type} event row`);
  // jsonb comes back parsed from both drivers; a string only from an old node-postgres.
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return { payload, writtenBy: row.xid };
}
