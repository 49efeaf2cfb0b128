import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { buildGenres, buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { AnswerCache } from './answer-cache.ts';
import { changeMark, markScope, onlyJobQueue, writtenTables } from './change-mark.ts';

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
    const afterTransaction = await changeMark(test.database);
    expect(afterTransaction).not.toBe(afterUpdate);
    // A write in a WITH's subquery: PostgreSQL reports its final SELECT's count (0 changed).
    await db.execute(
      sql`with changed as (update users set about = 'In a subquery' where id = ${user.id} returning id) select id from changed`,
    );
    expect(await changeMark(test.database)).not.toBe(afterTransaction);
  });

  it('holds (embedded) across reads, writes that changed no row, and the job queue', async () => {
    if (!embedded()) return;
    const { db } = test.ctx;
    const user = await buildUser(db);
    const before = await changeMark(test.database);
    await db.select().from(schema.users).where(eq(schema.users.id, user.id));
    await db.update(schema.users).set({ about: 'x' }).where(eq(schema.users.id, -1));
    await db.execute(sql`select count(*) from pgboss.job`);
    await db.execute(
      sql`with mine as (select id from users where id = ${user.id}) select * from mine`,
    );
    await test.database.pglite!.exec('update pgboss.job set priority = priority where false');
    // Its upkeep every 30 s, a script run as it is (BEGIN; …; COMMIT).
    const upkeep = JOB_QUEUE_STATEMENTS.find((statement) => statement.includes('commondeletion'));
    await test.database.pglite!.exec(upkeep!);
    expect(await changeMark(test.database)).toBe(before);
    // A SELECT calling something that writes counts.
    await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'id'))`);
    expect(await changeMark(test.database)).not.toBe(before);
  });
});

describe('the tables a statement writes', () => {
  it('are named for one plain statement: inserts, upserts, updates, deletes, its subqueries', () => {
    const cases: Array<[string, string[]]> = [
      [
        'insert into "reading_states" ("bookmark_id", "last_active_at") values ($1, $2) on conflict ("bookmark_id") do update set "last_active_at" = $2',
        ['reading_states'],
      ],
      ['update "bookmarks" set "progress_percent" = $1 where "bookmarks"."id" = $2', ['bookmarks']],
      ['delete from only public.reports where id = 1', ['reports']],
      ['select * into copy_of_users from users', ['copy_of_users']],
      [
        'with gone as (delete from comments returning id) insert into reading_states (bookmark_id) select id from gone',
        ['comments', 'reading_states'],
      ],
      [
        'with next as (select id from bookmarks for update) update bookmarks set progress_percent = 1 from next where bookmarks.id = next.id',
        ['bookmarks'],
      ],
    ];
    for (const [statement, tables] of cases) {
      expect([...(writtenTables(statement) ?? [])].sort(), statement).toEqual(tables.sort());
    }
  });

  it('are unknown for several statements, DDL, and calls that may write anything', () => {
    for (const statement of [
      'update bookmarks set progress_percent = 1; delete from comments',
      'truncate bookmarks',
      "insert into bookmarks (id) values (nextval('bookmarks_id_seq'))",
      'select margins_search_refresh(1, true)',
      'alter table bookmarks add column x integer',
    ]) {
      expect(writtenTables(statement), statement).toBeNull();
    }
  });

  it("leave a scope's view of the mark (embedded) when they are all its tables", async () => {
    if (!embedded()) return;
    const { db } = test.ctx;
    const scope = markScope(['users']);
    const user = await buildUser(db);
    const scoped = await changeMark(test.database, scope);
    const whole = await changeMark(test.database);
    await db.update(schema.users).set({ about: 'Scoped' }).where(eq(schema.users.id, user.id));
    expect(await changeMark(test.database)).not.toBe(whole);
    expect(await changeMark(test.database, scope)).toBe(scoped);
    // Another table, a transaction (whatever it wrote): the view moves too.
    await buildGenres(db, `scope ${user.id}`, [`Scoped ${user.id}`]);
    const afterGenres = await changeMark(test.database, scope);
    expect(afterGenres).not.toBe(scoped);
    await db.transaction(async (tx) => {
      await tx.update(schema.users).set({ about: 'In one' }).where(eq(schema.users.id, user.id));
    });
    expect(await changeMark(test.database, scope)).not.toBe(afterGenres);
  });
});

/**
 * The job queue's own statements as pg-boss 12.35 sends them, captured from a running app (one
 * a line): its polls and schedule upkeep, its maintenance (claiming a bam command), and the
 * scripts of its upkeep every 30 s (BEGIN; SET LOCAL …; an advisory lock; the statement; COMMIT).
 */
const JOB_QUEUE_STATEMENTS = readFileSync(
  new URL('./fixtures/pgboss-12.35-statements.sql', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter(Boolean);

describe("the job queue's statements", () => {
  it('leave the mark: they touch only its own tables, their subqueries and functions', () => {
    expect(JOB_QUEUE_STATEMENTS).toHaveLength(8);
    for (const statement of JOB_QUEUE_STATEMENTS)
      expect(onlyJobQueue(statement), statement).toBe(true);
    expect(onlyJobQueue('update pgboss.job set priority = priority where false')).toBe(true);
  });

  it('count as a change when they also name a table of ours, or are not one plain statement', () => {
    for (const statement of [
      'with gone as (delete from comments returning id) insert into pgboss.job (id) select id from gone',
      'update pgboss.job j set priority = 1 from comments c where c.id = 1',
      'insert into users (handle) select name from pgboss.job',
      'with next as (select id from pgboss.job) update users set about = 1 from next',
      'delete from pgboss.job; delete from comments',
      'truncate pgboss.job',
      'select count(*) from comments',
      'update comments set body = 1 where id in (select id from pgboss.job for update)',
      // Scripts: every statement must be the queue's.
      'BEGIN; DELETE FROM pgboss.job; DELETE FROM comments; COMMIT;',
      "BEGIN; SET LOCAL lock_timeout = 30000; SELECT pg_advisory_xact_lock(1); UPDATE users SET about = 'x'; COMMIT;",
      'BEGIN; SELECT pg_advisory_xact_lock(1) FROM users; DELETE FROM pgboss.job; COMMIT;',
      "BEGIN; DELETE FROM pgboss.job WHERE name = 'a;b'; DELETE FROM comments; COMMIT;",
      'BEGIN; DELETE FROM pgboss.job; -- a comment; DELETE FROM comments\nCOMMIT;',
      'BEGIN; COMMIT;',
      // The catalog may be read, and a comparison's FROM is none; anything else is still ours.
      'update pgboss.bam b set status = 1 where b.id is not distinct from (select id from comments)',
      'delete from pgboss.job where name = (select datname from pg_database) or id in (select id from users)',
      "insert into pgboss.job (id) select nextval('users_id_seq')",
    ]) {
      expect(onlyJobQueue(statement), statement).toBe(false);
    }
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
