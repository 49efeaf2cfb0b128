import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { AnswerCache } from './answer-cache.ts';
import { changeMark, onlyJobQueue } from './change-mark.ts';

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

/** The job queue's own statements as pg-boss 12.35 sends them (its polls and schedule upkeep). */
const JOB_QUEUE_STATEMENTS = [
  'INSERT INTO pgboss.job_common ( id, name, data, priority, start_after, created_on, singleton_key, singleton_on, group_id, group_tier, expire_seconds, deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff, retry_delay_max, policy, dead_letter, heartbeat_seconds, blocked, blocking, pending_dependencies ) SELECT COALESCE(id, gen_random_uuid()) as id, \'dispatch-events\' as name, data, COALESCE(priority, 0) as priority, j.start_after, pgboss.job_now() as created_on, "singletonKey", CASE WHEN "singletonSeconds" IS NOT NULL THEN \'epoch\'::timestamp + \'1s\'::interval * ("singletonSeconds"::float8 * floor(( date_part(\'epoch\', pgboss.job_now()) + COALESCE("singletonOffset",0)::float8) / "singletonSeconds"::float8 )) ELSE NULL END as singleton_on, "groupId" as group_id, "groupTier" as group_tier, COALESCE("expireInSeconds", q.expire_seconds) as expire_seconds, COALESCE("deleteAfterSeconds", q.deletion_seconds) as deletion_seconds, j.start_after + (COALESCE("retentionSeconds", q.retention_seconds) * interval \'1s\') as keep_until, COALESCE("retryLimit", q.retry_limit) as retry_limit, COALESCE("retryDelay", q.retry_delay) as retry_delay, COALESCE("retryBackoff", q.retry_backoff, false) as retry_backoff, COALESCE("retryDelayMax", q.retry_delay_max) as retry_delay_max, q.policy, COALESCE("deadLetter", q.dead_letter) as dead_letter, COALESCE("heartbeatSeconds", q.heartbeat_seconds) as heartbeat_seconds, COALESCE(blocked, false) as blocked, COALESCE(blocking, false) as blocking, COALESCE("pendingDependencies", 0) as pending_dependencies FROM ( SELECT *, CASE WHEN (right("startAfter", 1) = \'Z\' OR "startAfter" ~ \'^[0-9]{4}-[0-9]{2}-[0-9]{2}\') THEN CAST("startAfter" as timestamp with time zone) ELSE pgboss.job_now() + CAST(COALESCE("startAfter",\'0\') as interval) END as start_after FROM json_to_recordset($1::text::json) as x ( id uuid, priority integer, data jsonb, "startAfter" text, "retryLimit" integer, "retryDelay" integer, "retryDelayMax" integer, "retryBackoff" boolean, "singletonKey" text, "singletonSeconds" integer, "singletonOffset" integer, "groupId" text, "groupTier" text, "expireInSeconds" integer, "deleteAfterSeconds" integer, "retentionSeconds" integer, "deadLetter" text, "heartbeatSeconds" integer, blocked boolean, blocking boolean, "pendingDependencies" integer ) ) j JOIN pgboss.queue q ON q.name = \'dispatch-events\' ON CONFLICT DO NOTHING RETURNING id',
  'UPDATE pgboss.schedule s SET last_job_id = x."jobId" FROM json_to_recordset($1::json) AS x (name text, key text, "jobId" uuid) WHERE s.name = x.name AND COALESCE(s.key, \'\') = x.key',
  'WITH next AS ( SELECT j.id FROM pgboss.job_common j WHERE j.name = \'__pgboss__send-it\' AND j.state < \'active\' AND NOT j.blocked AND j.start_after <= pgboss.job_now() ORDER BY j.priority desc, j.created_on LIMIT 50 FOR UPDATE OF j SKIP LOCKED ) UPDATE pgboss.job_common j SET state = \'active\', started_on = pgboss.job_now(), heartbeat_on = pgboss.job_now(), retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END FROM next WHERE name = \'__pgboss__send-it\' AND j.id = next.id RETURNING j.id, name, data, retry_count as "retryCount", expire_seconds as "expireInSeconds", heartbeat_seconds as "heartbeatSeconds", group_id as "groupId", group_tier as "groupTier"',
];

describe("the job queue's statements", () => {
  it('leave the mark: they touch only its own tables, their subqueries and functions', () => {
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
