import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../paths.ts';
import { installJobQueues } from './data-template-make.ts';
import { openDatabase } from './index.ts';
import { START_LOCKS, underStartLock } from './start-lock.ts';
import { openTestDatabase } from './test-db.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const migrations = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).length;

describe('the start lock', () => {
  it('gives one turn at a time, per lock, and a failed turn does not block the next', async () => {
    const database = await openTestDatabase();
    try {
      const log: string[] = [];
      const turn = (name: string, fail = false) =>
        underStartLock(database, START_LOCKS.schema, async () => {
          log.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, 200));
          log.push(`${name} out`);
          if (fail) throw new Error(`${name} failed`);
          return name;
        });
      const other = underStartLock(database, START_LOCKS.demoSeed, async () => {
        log.push('seed');
        return 'seed';
      });
      const results = await Promise.allSettled([turn('a', true), turn('b'), turn('c'), other]);
      expect(results.map((result) => result.status)).toEqual([
        'rejected',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      // Another lock does not wait for this one; this one's turns never overlap.
      expect(log.indexOf('seed')).toBeLessThan(log.indexOf('a out'));
      // Turns never overlap: each "in" is followed by its own "out" (PostgreSQL may grant
      // waiting turns in any order).
      const turns = log.filter((entry) => entry !== 'seed');
      expect(turns).toHaveLength(6);
      for (let index = 0; index < turns.length; index += 2) {
        const name = turns[index]!.split(' ')[0];
        expect([turns[index], turns[index + 1]]).toEqual([`${name} in`, `${name} out`]);
      }
      expect(new Set(turns.map((entry) => entry.split(' ')[0]))).toEqual(new Set(['a', 'b', 'c']));
    } finally {
      await database.close();
    }
  });

  it.skipIf(!serverUrl)(
    'lets four processes start at once on an empty PostgreSQL database: one migrates, all come up',
    async () => {
      const name = `margins_start_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(serverUrl!);
        url.pathname = `/${name}`;
        const opened = await Promise.all(
          Array.from({ length: 4 }, async () => {
            const database = await openDatabase({ databaseUrl: url.toString() });
            await installJobQueues(database);
            return database;
          }),
        );
        try {
          const applied = await opened[0]!.pool!.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations',
          );
          expect(applied.rows[0]!.count).toBe(migrations);
          const queues = await opened[0]!.pool!.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM pgboss.queue',
          );
          expect(queues.rows[0]!.count).toBeGreaterThan(0);
        } finally {
          await Promise.all(opened.map((database) => database.close()));
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});
