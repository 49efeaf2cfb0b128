import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './index.ts';
import { runWithSettings } from './prepared.ts';
import { openTestDatabase } from './test-db.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => database?.close());

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;
const SETTINGS = { enable_seqscan: 'off', 'pg_trgm.word_similarity_threshold': '0.45' };

describe('runWithSettings', () => {
  it('runs a statement with its settings, and answers with the values of each run', async () => {
    const statement = (n: number, word: string) =>
      sql`select ${n}::integer * 2 as doubled, upper(${word}) as shout,
        current_setting('enable_seqscan') as seqscan,
        current_setting('pg_trgm.word_similarity_threshold') as threshold`;
    const settings = { seqscan: 'off', threshold: '0.45' };
    expect(rowsOf(await runWithSettings(database.db, SETTINGS, statement(2, 'quay')))).toEqual([
      { doubled: 4, shout: 'QUAY', ...settings },
    ]);
    // The same text with other values (on PostgreSQL: the same prepared statement).
    expect(rowsOf(await runWithSettings(database.db, SETTINGS, statement(21, 'tide')))).toEqual([
      { doubled: 42, shout: 'TIDE', ...settings },
    ]);
    // Another text: another statement, not a clash of names.
    const other = sql`select ${'x'} || 'y' as joined`;
    expect(rowsOf(await runWithSettings(database.db, SETTINGS, other))).toEqual([{ joined: 'xy' }]);
  });

  it('leaves the settings of every other statement as they were', async () => {
    await runWithSettings(database.db, SETTINGS, sql`select 1`);
    const [row] = rowsOf(
      await database.db.execute(sql`select current_setting('enable_seqscan') as seqscan`),
    );
    expect(row).toEqual({ seqscan: 'on' });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('prepares it on a PostgreSQL server', async () => {
    const statement = sql`select ${'p'} as prepared_here,
      (select count(*)::integer from pg_prepared_statements where name like 'm\\_%') as prepared`;
    await runWithSettings(database.db, SETTINGS, statement);
    const [row] = rowsOf(await runWithSettings(database.db, SETTINGS, statement));
    expect(row!.prepared).toBeGreaterThanOrEqual(1);
  });
});
