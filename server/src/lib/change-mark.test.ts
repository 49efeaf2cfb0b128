import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { AnswerCache } from './answer-cache.ts';
import { changeMark } from './change-mark.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const embedded = () => test.database.kind === 'pglite';

describe('the change mark', () => {
  it('moves with every committed write: a statement, a transaction', async () => {
    const { db } = test.ctx;
    const user = await buildUser(db);
    const before = await changeMark(test.database);
    await db.update(schema.users).set({ about: 'Changed' }).where(eq(schema.users.id, user.id));
    const afterUpdate = await changeMark(test.database);
    expect(afterUpdate).not.toBe(before);
    await db.transaction(async (tx) => {
      await tx.update(schema.users).set({ about: 'Again' }).where(eq(schema.users.id, user.id));
    });
    expect(await changeMark(test.database)).not.toBe(afterUpdate);
  });

  it('holds (embedded) across reads, writes that changed no row, and the job queue', async () => {
    if (!embedded()) return;
    const { db } = test.ctx;
    const user = await buildUser(db);
    const before = await changeMark(test.database);
    await db.select().from(schema.users).where(eq(schema.users.id, user.id));
    await db.update(schema.users).set({ about: 'x' }).where(eq(schema.users.id, -1));
    await db.execute(sql`select count(*) from pgboss.job`);
    await test.database.pglite!.exec('update pgboss.job set priority = priority where false');
    expect(await changeMark(test.database)).toBe(before);
    // A SELECT calling something that writes counts.
    await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'id'))`);
    expect(await changeMark(test.database)).not.toBe(before);
  });
});

/**
 * Runs `attempt` until the change mark holds across it, and answers its result. On PostgreSQL
 * the mark is the WAL position of the whole server, which the job queue, checkpoints, autovacuum
 * and the other test files writing at the same time move at any moment; a check that needs one
 * mark is retried, a little apart, until it had one (embedded: the first time), for up to 30 s.
 */
async function underOneMark<T>(attempt: (round: number) => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (let round = 0; Date.now() < deadline; round++) {
    const before = await changeMark(test.database);
    const result = await attempt(round);
    if ((await changeMark(test.database)) === before) return result;
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
  }
  throw new Error('the change mark never held for the length of one check');
}

describe('the answer cache', () => {
  it(
    'answers from memory until the database changes, and stays within its budget',
    {
      timeout: 90_000,
    },
    async () => {
      const cache = new AnswerCache<string>(10, (value) => value.length);
      let computed = 0;
      const compute = (value: string) => async () => {
        computed++;
        return value;
      };
      // A repeat under the same mark is answered from memory.
      const repeat = await underOneMark(async (round) => {
        const key = `a${round}`;
        const before = computed;
        const answers = [
          await cache.get(test.database, key, compute('1234')),
          await cache.get(test.database, key, compute('other')),
        ];
        return { key, answers, computations: computed - before };
      });
      expect(repeat.answers).toEqual(['1234', '1234']);
      expect(repeat.computations).toBe(1);
      // A write moves the mark: the next ask computes again.
      await buildUser(test.ctx.db);
      const beforeChange = computed;
      expect(await cache.get(test.database, repeat.key, compute('5678'))).toBe('5678');
      expect(computed).toBe(beforeChange + 1);
      // Past the budget the least recently used goes; an answer larger than it is not kept.
      await cache.get(test.database, 'b', compute('bbbb'));
      await cache.get(test.database, 'c', compute('cccc'));
      expect(cache.size(test.database)).toEqual({ entries: 2, bytes: 8 });
      await cache.get(test.database, 'd', compute('d'.repeat(11)));
      expect(cache.size(test.database).bytes).toBeLessThanOrEqual(10);
      // Concurrent misses under one mark compute once.
      await buildUser(test.ctx.db);
      const concurrent = await underOneMark(async (round) => {
        const before = computed;
        await Promise.all([1, 2, 3].map(() => cache.get(test.database, `e${round}`, compute('e'))));
        return computed - before;
      });
      expect(concurrent).toBe(1);
    },
  );
});
