import { readdirSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { migrationsFolder } from '../paths.ts';
import { type Database } from './index.ts';
import { openTestDatabase } from './test-db.ts';

const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
});

async function one<Value>(database: Database, query: SQL): Promise<Value> {
  const result = (await database.db.execute(query)) as unknown as { rows: Array<{ v: Value }> };
  return result.rows[0]!.v;
}

it('copies of the template are migrated, have the job queue, and are each their own', async () => {
  const [first, second] = await Promise.all([openTestDatabase(), openTestDatabase()]);
  opened.push(first, second);
  const migrations = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
  for (const copy of [first, second]) {
    const applied = sql`SELECT count(*)::int AS v FROM drizzle.__drizzle_migrations`;
    expect(await one(copy, applied)).toBe(migrations.length);
  }
  expect(
    await one<number>(first, sql`SELECT count(*)::int AS v FROM pgboss.queue`),
  ).toBeGreaterThan(0);
  await first.db.execute(sql`CREATE TABLE only_in_the_first (x int)`);
  expect(await one(second, sql`SELECT to_regclass('only_in_the_first')::text AS v`)).toBeNull();
});
