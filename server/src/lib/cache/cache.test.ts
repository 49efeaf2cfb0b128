import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeListenerOf } from '../../db/change-listener.ts';
import { schema } from '../../db/index.ts';
import { buildManuscript } from '../../modules/manuscripts/test-helpers.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { cacheStats, declaredCaches, defineCache } from './cache.ts';

// The one cache module (cache.ts) on a real database — PGlite, and PostgreSQL 15 when
// TEST_DATABASE_URL names one (CI runs both): a kept value is dropped exactly when a table it
// declares is written, by a committed statement of any kind.

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
  await changeListenerOf(test.ctx).start();
});
afterAll(async () => {
  await test?.close();
});

const unique = () => randomBytes(4).toString('hex');

/** A cache of the number of computations so far: a new number means it was computed again. */
function countingCache(name: string, tables: string[]) {
  const definition = defineCache<number>({
    name,
    dependsOn: { tables },
    limit: { entries: 10 },
  });
  let computed = 0;
  return {
    definition,
    read: () => definition.of(test.ctx).get('key', async () => ++computed),
  };
}

const waitingCache = countingCache('test_waiting_list', ['waiting_list']);
const bookmarksCache = countingCache('test_bookmarks', ['bookmarks']);
const searchCache = countingCache('test_search', ['manuscript_search']);

describe('a value that depends on tables', () => {
  it('is dropped by a write to one of them, and kept across writes to others', async () => {
    const first = await waitingCache.read();
    expect(await waitingCache.read()).toBe(first);
    await test.ctx.db.insert(schema.contactMessages).values({
      name: 'N',
      email: `${unique()}@example.test`,
      subject: 'S',
      message: 'M',
    });
    expect(await waitingCache.read()).toBe(first);
    await test.ctx.db.insert(schema.waitingList).values({ email: `${unique()}@example.test` });
    const second = await waitingCache.read();
    expect(second).toBe(first + 1);
    // Any statement counts, whatever its form: an UPDATE in a data-modifying WITH included.
    await test.ctx.db.execute(
      sql`with changed as (update waiting_list set email = email where id = -1 returning id)
          select count(*) from changed`,
    );
    expect(await waitingCache.read()).toBe(second + 1);
  });

  it('is kept across a rolled-back transaction that wrote one of them', async () => {
    const first = await waitingCache.read();
    await expect(
      test.ctx.db.transaction(async (tx) => {
        await tx.insert(schema.waitingList).values({ email: `${unique()}@example.test` });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await waitingCache.read()).toBe(first);
  });

  it('is dropped by a committed transaction, at its commit', async () => {
    const first = await waitingCache.read();
    await test.ctx.db.transaction(async (tx) => {
      await tx.insert(schema.waitingList).values({ email: `${unique()}@example.test` });
    });
    expect(await waitingCache.read()).toBe(first + 1);
  });

  it('is dropped by a foreign-key cascade into one of them', async () => {
    const author = await buildUser(test.ctx.db);
    const reader = await buildUser(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, author);
    await test.ctx.db.insert(schema.bookmarks).values({
      userId: reader.id,
      manuscriptId: manuscript.id,
    });
    const first = await bookmarksCache.read();
    await test.ctx.db.delete(schema.users).where(eq(schema.users.id, reader.id));
    expect(await bookmarksCache.read()).toBe(first + 1);
  });

  it('is dropped by a write a trigger makes into one of them', async () => {
    const author = await buildUser(test.ctx.db);
    const reader = await buildUser(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, author);
    const first = await searchCache.read();
    // A new read moves the manuscript's read count in its search row (migration 0006).
    await test.ctx.db.insert(schema.bookmarks).values({
      userId: reader.id,
      manuscriptId: manuscript.id,
    });
    expect(await searchCache.read()).toBe(first + 1);
  });
});

describe('every kept answer of the app', () => {
  it('is dropped by a write to each table it declares, kept across writes to any other', async () => {
    const withTables = declaredCaches().filter(
      (definition) =>
        definition.declaration.dependsOn.tables?.length &&
        !definition.declaration.name.startsWith('test_'),
    );
    expect(withTables.map((definition) => definition.declaration.name)).toEqual(
      expect.arrayContaining(['comment_list_answers', 'reader_viewer_parts', 'features']),
    );
    const everyTable = await test.ctx.db.execute<{ table: string }>(
      sql`select tablename as table from pg_tables where schemaname = 'public' order by 1`,
    );
    const allTables = (everyTable as unknown as { rows: Array<{ table: string }> }).rows.map(
      (row) => row.table,
    );
    for (const definition of withTables) {
      const declared = definition.declaration.dependsOn.tables!;
      const name = definition.declaration.name;
      // The same dependencies, on values a probe can make ('prompt' ones waited for here).
      const cache = defineCache<number>({
        ...definition.declaration,
        name: `test_probe_${name}`,
        limit: { entries: 1 },
        tagsOf: undefined,
      }).of(test.ctx);
      let computed = 0;
      const probe = async () => {
        await changeListenerOf(test.ctx).caughtUp();
        return cache.get('probe', async () => ++computed);
      };
      await probe();
      for (const table of allTables.filter((table) => !declared.includes(table))) {
        // A statement that changes no row still announces its table (a statement trigger).
        await test.ctx.db.execute(sql.raw(`delete from "${table}" where false`));
        await probe();
        expect(computed, `${name} after a write to ${table}`).toBe(1);
      }
      for (const table of declared) {
        const before = computed;
        await test.ctx.db.execute(sql.raw(`delete from "${table}" where false`));
        await probe();
        expect(computed, `${name} after a write to ${table}`).toBe(before + 1);
      }
    }
  });
});

describe('the cache module', () => {
  const timed = defineCache<string>({
    name: 'test_timed',
    dependsOn: { ttlMs: 40 },
    limit: { entries: 2 },
    tagsOf: (key) => [`t:${key[0]}`],
  });
  const weighed = defineCache<string>({
    name: 'test_weighed',
    dependsOn: { immutable: 'test values never change' },
    limit: { bytes: 10, sizeOf: (value) => value.length },
  });

  it('drops a value past its time-out, the least recently used past its limit', async () => {
    const cache = timed.of({ db: {} });
    cache.set(cache.mark(), 'a1', 'one');
    cache.set(cache.mark(), 'b1', 'two');
    expect(cache.peek('a1')).toBe('one');
    cache.set(cache.mark(), 'c1', 'three');
    expect(cache.peek('b1')).toBeUndefined();
    expect(cache.peek('a1')).toBe('one');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.peek('a1')).toBeUndefined();
  });

  it('forgets by key and by tag, and keeps no value read across a forget', () => {
    const cache = timed.of({ db: {} });
    cache.set(cache.mark(), 'a1', 'one');
    cache.set(cache.mark(), 'b1', 'two');
    cache.forgetTagged('t:a');
    expect(cache.peek('a1')).toBeUndefined();
    expect(cache.peek('b1')).toBe('two');
    const epoch = cache.mark();
    cache.forget('b1');
    cache.set(epoch, 'a2', 'read before the forget');
    expect(cache.peek('a2')).toBeUndefined();
  });

  it('keeps within its bytes, and computes concurrent misses once', async () => {
    const cache = weighed.of({ db: {} });
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return '123456';
    };
    const [one, two] = await Promise.all([cache.get('x', compute), cache.get('x', compute)]);
    expect([one, two, runs]).toEqual(['123456', '123456', 1]);
    await cache.get('y', async () => 'abcdef');
    expect(cache.size()).toEqual({ entries: 1, bytes: 6 });
    expect(cache.has('x')).toBe(false);
    expect(cache.has('y')).toBe(true);
  });

  it('counts hits and misses per declared cache', async () => {
    const cache = weighed.of({ db: {} });
    const before = cacheStats().find((stats) => stats.name === 'test_weighed')!;
    await cache.get('z', async () => 'z');
    await cache.get('z', async () => 'z');
    const after = cacheStats().find((stats) => stats.name === 'test_weighed')!;
    expect(after.misses - before.misses).toBe(1);
    expect(after.hits - before.hits).toBe(1);
  });

  it('refuses a declaration that names no dependency, or a table that does not exist', () => {
    expect(() =>
      defineCache({ name: 'test_nothing', dependsOn: {}, limit: { entries: 1 } }),
    ).toThrow(/depend/);
    expect(() =>
      defineCache({ name: 'test_typo', dependsOn: { tables: ['comment'] }, limit: { entries: 1 } }),
    ).toThrow(/no table comment/);
  });
});

// Last: it stops this app's listener.
describe('a cache that hears changes', () => {
  it('is not kept while this process does not hear the changes', async () => {
    const listener = changeListenerOf(test.ctx);
    await listener.close();
    const before = waitingCache.definition.of(test.ctx);
    expect(before.active).toBe(false);
    const first = await waitingCache.read();
    expect(await waitingCache.read()).toBe(first + 1);
  });
});
