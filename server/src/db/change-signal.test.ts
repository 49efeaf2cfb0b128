import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './test-db.ts';
import type { Database } from './index.ts';

// The change signal's triggers (migration 0012): every application table announces its writes,
// so no kept value can miss a change to a table it reads (lib/cache). A migration that creates a
// table must call margins_watch_changes on it: this fails until it does.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function rows<Row>(query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = await database.db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}

describe('the change triggers', () => {
  it('are on every table outside the job queue’s schema, for every kind of write', async () => {
    const tables = await rows<{ table: string; watched: boolean; events: number }>(sql`
      select c.relname as table,
             t.tgname is not null as watched,
             coalesce(t.tgtype, 0)::int as events
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_trigger t on t.tgrelid = c.oid and t.tgname = 'margins_changed'
       where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pgboss', 'drizzle')
         and n.nspname not like 'pg\\_%'
       order by 1`);
    expect(tables.length).toBeGreaterThan(40);
    expect(tables.filter((table) => !table.watched).map((table) => table.table)).toEqual([]);
    // tgtype: bit 0 row-level (off: per statement), 2 INSERT, 3 DELETE, 4 UPDATE, 5 TRUNCATE.
    const wanted = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5);
    for (const table of tables) expect(table.events, table.table).toBe(wanted);
  });

  it('announce the table a statement wrote, at its commit only', async () => {
    const pglite = database.pglite;
    if (!pglite) return;
    const heard: string[] = [];
    const stop = await pglite.listen('margins_changes', (table) => heard.push(table));
    await pglite.query(`insert into waiting_list (email) values ('a@example.test')`);
    await pglite
      .transaction(async (tx) => {
        await tx.query(`insert into waiting_list (email) values ('b@example.test')`);
        await tx.rollback();
      })
      .catch(() => undefined);
    await pglite.query(`delete from contact_messages where id = -1`);
    await stop();
    expect(heard).toEqual(['waiting_list', 'contact_messages']);
  });
});
