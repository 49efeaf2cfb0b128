import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './index.ts';
import { executePrepared, preparesStatements } from './prepared.ts';
import { openTestDatabase } from './test-db.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => database?.close());

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;

describe('executePrepared', () => {
  it('prepares on a PostgreSQL server only, and answers with the values of each run', async () => {
    await database.db.transaction(async (tx) => {
      expect(preparesStatements(tx)).toBe(database.kind === 'postgres');
      const statement = (n: number, word: string) =>
        sql`select ${n}::integer * 2 as doubled, upper(${word}) as shout`;
      expect(rowsOf(await executePrepared(tx, statement(2, 'quay')))).toEqual([
        { doubled: 4, shout: 'QUAY' },
      ]);
      // The same text with other values: the same prepared statement, the new values.
      expect(rowsOf(await executePrepared(tx, statement(21, 'tide')))).toEqual([
        { doubled: 42, shout: 'TIDE' },
      ]);
      // Another text: another statement, not a clash of names.
      expect(rowsOf(await executePrepared(tx, sql`select ${'x'} || 'y' as joined`))).toEqual([
        { joined: 'xy' },
      ]);
      if (database.kind === 'postgres') {
        const prepared = rowsOf(
          await tx.execute(sql`select count(*)::integer as n from pg_prepared_statements
            where name like 'm\\_%'`),
        );
        expect(prepared[0]!.n).toBe(2);
      }
    });
  });
});
