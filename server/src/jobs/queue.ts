import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  fromDrizzle,
  fromPglite,
  PgBoss,
  type DrizzleSqlTagLike,
  type DrizzleTransactionLike,
  type JobWithMetadata,
  type QueueResult,
} from 'pg-boss';
import type { z } from 'zod';
import type { JobSettings } from '../config.ts';
import type { AppContext, JobRef, Jobs } from '../context.ts';
import type { Database, Executor } from '../db/index.ts';
import { START_LOCKS, underStartLock } from '../db/start-lock.ts';
import { dataToSend, sentData, type JobAttempt, type JobDefinition } from './definition.ts';
import { withRequestId } from '../lib/request-context.ts';
import { AttemptLiveness, type DeadAttempt } from './liveness.ts';
import { startPhase } from '../start-timing.ts';

/** A queue's jobs by state (JobQueue.queueDepths). */
export interface QueueDepth {
  queue: string;
  /** Waiting, and due now. */
  ready: number;
  /** Waiting for a later time (a retry's backoff). */
  deferred: number;
  active: number;
}

/**
 * Seconds from when the job could first start (sent, or its retry's backoff over) to when this
 * attempt started; both times are the database's.
 */
function waitSeconds(job: JobWithMetadata): number | null {
  const due = Math.max(new Date(job.createdOn).getTime(), new Date(job.startAfter).getTime());
  const seconds = (new Date(job.startedOn).getTime() - due) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, seconds) : null;
}

const deadLetterOf = (id: string) => `${id}__failed`;
const SCHEMA = 'pgboss';

/**
 * The job queue (pg-boss, in the same database). Work is enqueued inside the transaction that
 * creates it (send(tx, …)), so a job exists exactly when its rows do; handlers run after commit.
 *
 * Pickup: the process that enqueued a job wakes its own workers right after the commit (wake()).
 * On PostgreSQL every queue is also LISTEN/NOTIFY-enabled, so workers in other processes are
 * woken by the commit too. Polling stays as the fallback (delayed retries, a missed notification).
 */
const NO_JOB_ID = '00000000-0000-0000-0000-000000000000';

export class JobQueue implements Jobs {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly workerIds = new Map<string, string[]>();
  private started = false;
  /** On PostgreSQL: the running attempts' locks and the sweep for the dead ones (to stop()). */
  private readonly liveness: AttemptLiveness | null;

  constructor(
    private readonly database: Database,
    private readonly settings: JobSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    const common = {
      schema: SCHEMA,
      // Scheduled jobs (JobDefinition.schedule): pg-boss's timekeeper files each occurrence
      // under a singleton key, so N processes still send one job.
      schedule: true,
      supervise: true,
      superviseIntervalSeconds: settings.superviseSeconds,
      monitorIntervalSeconds: settings.superviseSeconds,
      migrate: true,
      // PGlite is one process (wake() reaches its workers), and its notifications would run the
      // job's first queries in the same turn of the event loop as the commit that sent it.
      useListenNotify: database.kind === 'postgres',
    };
    if (database.pglite) {
      this.boss = new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
    } else {
      const connectionString = database.pool?.options.connectionString;
      if (!connectionString) throw new Error('The job queue needs the database connection string.');
      this.boss = new PgBoss({ ...common, connectionString, max: 4 });
    }
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    this.liveness = database.pool ? new AttemptLiveness(database.pool, log) : null;
  }

  /** Declares a job; call before start(). */
  define<Payload extends z.ZodType>(definition: JobDefinition<Payload>): void {
    this.definitions.set(definition.id, definition as unknown as JobDefinition);
  }

  /**
   * Installs the queue schema, recovers work cut off by a restart and starts the workers; with
   * `work: false` (a web process) only the queues, so that jobs can be sent.
   */
  async start(ctx: AppContext, { work = true }: { work?: boolean } = {}): Promise<void> {
    await this.installQueues();
    startPhase('queues-ready');
    if (!work) return;
    const { settings } = this;
    for (const definition of this.definitions.values()) {
      const deadLetter = deadLetterOf(definition.id);
      if (this.database.kind === 'pglite') await this.retryOrphans(definition.id);
      if (definition.prepare) {
        const started = performance.now();
        await definition.prepare(ctx).then(
          () =>
            this.log.debug(
              { job: definition.id, ms: Math.round(performance.now() - started) },
              'job ready',
            ),
          // Not fatal: the work still runs, only without what prepare() would have set up.
          (error: unknown) =>
            this.log.error({ err: error, job: definition.id }, 'job preparation failed'),
        );
        startPhase(`prepared-${definition.id}`);
      }
      const localConcurrency = definition.concurrency?.(ctx) ?? 1;
      const workOptions = {
        includeMetadata: true as const,
        pollingIntervalSeconds: settings.pollingSeconds,
        // Polling goes on at the same pace with notifications on: delayed retries are found by
        // it, not by a notification.
        notifyPollingIntervalSeconds: settings.pollingSeconds,
        ...(definition.groupConcurrency === undefined
          ? {}
          : { groupConcurrency: definition.groupConcurrency }),
      };
      // One pg-boss worker per slot (not localConcurrency), so wake() can reach every idle one.
      const workerIds: string[] = [];
      for (let slot = 0; slot < localConcurrency; slot++) {
        workerIds.push(
          await this.boss.work(
            definition.id,
            workOptions,
            async ([job]: JobWithMetadata<object>[]) => {
              if (job) await this.alive(job, () => this.runAttempt(ctx, definition, job));
            },
          ),
        );
      }
      this.workerIds.set(definition.id, workerIds);
      await this.boss.work(deadLetter, workOptions, async ([job]: JobWithMetadata<object>[]) => {
        const { onFailed } = definition;
        if (!job || !onFailed) return;
        const { payload: data, requestId } = sentData(job.data);
        const payload = definition.payload.safeParse(data);
        if (payload.success) {
          await withRequestId(requestId, () => this.alive(job, () => onFailed(ctx, payload.data)));
        }
      });
    }
    startPhase('workers-started');
    const queues = [...this.definitions.keys()].flatMap((id) => [id, deadLetterOf(id)]);
    this.liveness?.watch(queues, settings.sweepSeconds, (name, dead) => this.retryDead(name, dead));
    for (const definition of this.definitions.values()) {
      await definition.recover?.(ctx).catch((error: unknown) => {
        this.log.error({ err: error, job: definition.id }, 'job recovery failed');
      });
    }
  }

  /**
   * Starts pg-boss (installing or upgrading its schema) and creates or updates every declared
   * queue and schedule; no workers. What a web process needs to send jobs, and what the build's
   * data template (db/data-template-cli.ts) keeps ready.
   */
  async installQueues(): Promise<void> {
    // Processes started together on one database install the queues one after the other.
    await underStartLock(this.database, START_LOCKS.schema, () => this.installQueuesNow());
  }

  private async installQueuesNow(): Promise<void> {
    await this.boss.start();
    startPhase('pgboss-started');
    this.started = true;
    const { settings } = this;
    // One read of every queue: a restart finds them as it left them and writes nothing.
    const existing = new Map((await this.boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const definition of this.definitions.values()) {
      const deadLetter = deadLetterOf(definition.id);
      await this.ensureQueue(existing.get(deadLetter), deadLetter, {
        retryLimit: settings.retryLimit,
        retryDelay: settings.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: settings.expireSeconds,
      });
      const changed = await this.ensureQueue(existing.get(definition.id), definition.id, {
        retryLimit: settings.retryLimit,
        retryDelay: settings.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: settings.retryDelayMaxSeconds,
        expireInSeconds: settings.expireSeconds,
        heartbeatSeconds: settings.heartbeatSeconds,
        deadLetter,
        notify: this.database.kind === 'postgres',
      });
      // pg-boss looks a queue up on its first use, through its own connection: on the embedded
      // database, a first send() inside our transaction would wait for that transaction itself.
      // Looking it up now fills pg-boss's cache (a worker does so too, a web process must). An
      // unchanged queue is in that cache already: pg-boss read every queue as it started.
      if (changed) await this.boss.findJobs(definition.id, { id: NO_JOB_ID });
      if (definition.schedule) {
        const { cron, tz = 'UTC' } = definition.schedule;
        await this.boss.schedule(definition.id, cron, {}, { tz });
      }
    }
  }

  /**
   * Enqueues a job inside the caller's transaction (a plain send inside a PGlite transaction
   * would wait for the transaction it is part of). Call wake() after the commit.
   */
  async send<Payload extends z.ZodType>(
    tx: Executor,
    definition: JobRef<Payload>,
    payload: z.input<Payload>,
    options: {
      id?: string;
      /** Higher first; equal priorities in the order they were sent. */
      priority?: number;
      /** Whose job it is, for the definition's groupConcurrency. */
      group?: string;
    } = {},
  ): Promise<string> {
    const data = dataToSend(definition.payload.parse(payload) as object);
    const db = fromDrizzle(tx as unknown as DrizzleTransactionLike, sql as DrizzleSqlTagLike);
    const { group, ...rest } = options;
    const id = await this.boss.send(definition.id, data, {
      ...rest,
      ...(group === undefined ? {} : { group: { id: group } }),
      db,
    });
    if (!id) throw new Error(`The job queue refused a ${definition.id} job.`);
    return id;
  }

  /**
   * Tells this process's workers to look for work now instead of at their next poll. Call it
   * after the transaction that sent the job has committed (before, the job is not visible yet).
   * They look on the next turn of the event loop, after the caller's request has been answered.
   */
  wake(definition: JobRef): void {
    setImmediate(() => {
      for (const workerId of this.workerIds.get(definition.id) ?? []) {
        this.boss.notifyWorker(workerId);
      }
    });
  }

  /** The job's state, or null when pg-boss no longer has it. */
  async stateOf(definition: JobRef, jobId: string): Promise<string | null> {
    const [job] = await this.boss.findJobs(definition.id, { id: jobId });
    return job?.state ?? null;
  }

  get running(): boolean {
    return this.started;
  }

  /**
   * The jobs of every declared queue and its dead letters, by state, as pg-boss's monitor last
   * counted them (every superviseSeconds): one read of its small queue table, no count over the
   * jobs. Null before start().
   */
  async queueDepths(): Promise<QueueDepth[] | null> {
    if (!this.started) return null;
    const names = [...this.definitions.keys()].flatMap((id) => [id, deadLetterOf(id)]);
    const queues = await this.boss.getQueues(names);
    return queues.map((queue) => ({
      queue: queue.name,
      ready: Number(queue.readyCount ?? 0),
      deferred: Number(queue.deferredCount ?? 0),
      active: Number(queue.activeCount ?? 0),
    }));
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 5_000, close: true });
    await this.liveness?.close();
  }

  /**
   * Fails the attempts (of any process's workers) whose process is gone, so that they are retried
   * now; several processes' sweeps fail an attempt once (pg-boss fences it to the attempt seen).
   */
  private async retryDead(name: string, attempts: DeadAttempt[]): Promise<void> {
    if (!this.started) return;
    this.log.warn({ queue: name, jobs: attempts.length }, 'retrying jobs whose worker stopped');
    await this.boss.fail(name, attempts, { message: 'its worker stopped' });
    const definition = this.definitions.get(name);
    if (definition) this.wake(definition);
  }

  private async runAttempt(ctx: AppContext, definition: JobDefinition, job: JobWithMetadata) {
    const { payload: data, requestId } = sentData(job.data);
    await withRequestId(requestId, () => this.runPayload(ctx, definition, job, data));
  }

  private async runPayload(
    ctx: AppContext,
    definition: JobDefinition,
    job: JobWithMetadata,
    data: unknown,
  ) {
    const payload = definition.payload.safeParse(data);
    if (!payload.success) {
      // A payload that can never run: log it and let it complete rather than retry forever.
      this.log.error({ job: job.id, issues: payload.error.issues }, 'invalid job payload');
      return;
    }
    const attempt: JobAttempt = {
      id: job.id,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      isLastAttempt: job.retryCount >= job.retryLimit,
    };
    const waited = waitSeconds(job);
    if (waited !== null) ctx.metrics.jobStarted(definition.id, waited);
    const started = performance.now();
    const ran = () => (performance.now() - started) / 1000;
    try {
      await definition.handler(ctx, payload.data, attempt);
      ctx.metrics.jobFinished(definition.id, ran(), 'completed');
      this.log.info(
        { job: definition.id, jobId: job.id, ms: Math.round(ran() * 1000) },
        'job done',
      );
    } catch (error) {
      ctx.metrics.jobFinished(definition.id, ran(), 'failed');
      this.log.warn(
        { err: error, job: definition.id, jobId: job.id, attempt: attempt.retryCount + 1 },
        attempt.isLastAttempt ? 'job failed for good' : 'job failed; it will be retried',
      );
      throw error;
    }
  }

  /** Runs an attempt holding its job's liveness lock (see liveness.ts). */
  private async alive(job: JobWithMetadata, run: () => Promise<void>): Promise<void> {
    const release = (await this.liveness?.hold(job.id)) ?? (() => undefined);
    try {
      await run();
    } finally {
      release();
    }
  }

  /** Creates the queue, or updates what differs; true when it wrote either. */
  private async ensureQueue(
    existing: QueueResult | undefined,
    name: string,
    options: NonNullable<Parameters<PgBoss['createQueue']>[1]>,
  ): Promise<boolean> {
    if (!existing) {
      await this.boss.createQueue(name, options);
      return true;
    }
    // pg-boss fixes these when the queue is created.
    const {
      deadLetter: _deadLetter,
      retryDelayMax: _max,
      heartbeatSeconds: _heartbeat,
      ...updatable
    } = options;
    const current = new Map<string, unknown>(Object.entries(existing));
    const differs = Object.entries(updatable).some(([key, value]) => current.get(key) !== value);
    if (differs) await this.boss.updateQueue(name, updatable);
    return differs;
  }

  /**
   * The embedded database is locked to this one process, so a job still `active` at start was
   * cut off by a restart: fail that attempt now (it is retried) instead of waiting for expiry.
   */
  private async retryOrphans(name: string): Promise<void> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT id, retry_count AS "retryCount" FROM ${SCHEMA}.job WHERE name = $1 AND state = 'active'`,
        [name],
      );
    const orphans = rows as Array<{ id: string; retryCount: number }>;
    if (orphans.length === 0) return;
    this.log.warn({ queue: name, jobs: orphans.length }, 'retrying jobs cut off by a restart');
    await this.boss.fail(name, orphans, { message: 'interrupted by a restart' });
  }
}
