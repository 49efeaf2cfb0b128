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

describe('the answer cache', () => {
  it('answers from memory until the database changes, and stays within its budget', async () => {
    const cache = new AnswerCache<string>(10, (value) => value.length);
    let computed = 0;
    const compute = (value: string) => async () => {
      computed++;
      return value;
    };
    expect(await cache.get(test.database, 'a', compute('1234'))).toBe('1234');
    expect(await cache.get(test.database, 'a', compute('other'))).toBe('1234');
    expect(computed).toBe(1);
    await buildUser(test.ctx.db);
    expect(await cache.get(test.database, 'a', compute('5678'))).toBe('5678');
    expect(computed).toBe(2);
    // Past the budget the least recently used goes; an answer larger than it is not kept.
    await cache.get(test.database, 'b', compute('bbbb'));
    await cache.get(test.database, 'c', compute('cccc'));
    expect(cache.size(test.database)).toEqual({ entries: 2, bytes: 8 });
    await cache.get(test.database, 'd', compute('d'.repeat(11)));
    expect(cache.size(test.database).bytes).toBeLessThanOrEqual(10);
    // Concurrent misses under one mark compute once. On PostgreSQL the mark is the WAL
    // position, which the job queue and autovacuum move at any moment, so the three calls
    // may see two marks there: the count is exact only embedded, where nothing else writes.
    if (!embedded()) return;
    await buildUser(test.ctx.db);
    const before = computed;
    await Promise.all([1, 2, 3].map(() => cache.get(test.database, 'e', compute('e'))));
    expect(computed).toBe(before + 1);
  });
});
