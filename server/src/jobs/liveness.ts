import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * The first key of every running attempt's advisory lock; the second is hashtext(job id). Two
 * int4 keys, so these never meet the start locks (one bigint key each, db/start-lock.ts).
 */
const ATTEMPT_LOCK_KEY = 72_010_345;

/**
 * An attempt younger than this is never taken for dead: pg-boss marks a job active a moment
 * before the handler (and so hold()) runs.
 */
const STARTING_SECONDS = 3;

/**
 * After the handler returns, pg-boss still has to mark the job completed (one statement); the
 * lock outlives the handler by this long, so that no sweep finds the attempt unheld and
 * finished-but-not-yet-completed in between.
 */
const RELEASE_DELAY_MS = 1_000;

/** An attempt that is active in pg-boss but whose process is gone. */
export interface DeadAttempt {
  id: string;
  name: string;
  retryCount: number;
}

/**
 * Proof that a running attempt's process is alive, on PostgreSQL. While an attempt runs, its
 * process holds a session advisory lock named after the job, on a connection of its own; the
 * lock goes when the process does (the server sees the connection close at once on a kill -9;
 * TCP keepalive notices a machine that is lost). A sweep in every worker process (sweep()) lists
 * the active attempts whose lock nobody holds, and the queue fails them so that pg-boss retries
 * them within seconds: its own heartbeat is 10 s at the least, then its supervise interval.
 *
 * A process whose lock connection dropped while it lives (a network blip) may see its attempt
 * retried elsewhere; every handler is idempotent (its work is guarded by the rows it writes), and
 * pg-boss fences a settle to the attempt that ran it.
 */
export class AttemptLiveness {
  private client: Promise<pg.Client> | null = null;
  /** The locks this process holds, by job id, with how many attempts hold each. */
  private readonly held = new Map<string, number>();
  private closed = false;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Takes the job's lock; returns what lets it go once the attempt is over. Never throws: an
   * attempt runs whether or not its liveness could be shown (pg-boss's heartbeat still covers it).
   */
  async hold(jobId: string): Promise<() => void> {
    const taken = await this.lock(jobId).catch((error: unknown) => {
      this.log.warn({ err: error, jobId }, 'could not take a running job’s lock');
      return false;
    });
    if (!taken) return () => undefined;
    this.held.set(jobId, (this.held.get(jobId) ?? 0) + 1);
    return () => {
      setTimeout(() => void this.release(jobId), RELEASE_DELAY_MS).unref();
    };
  }

  /**
   * Every `seconds`, hands `retry` the active attempts of these queues that no live process
   * holds, by queue; one sweep at a time, until close().
   */
  watch(
    queues: readonly string[],
    seconds: number,
    retry: (queue: string, attempts: DeadAttempt[]) => Promise<void>,
  ): void {
    let sweeping = false;
    const sweepOnce = async () => {
      const byQueue = new Map<string, DeadAttempt[]>();
      for (const attempt of await this.sweep(queues)) {
        byQueue.set(attempt.name, [...(byQueue.get(attempt.name) ?? []), attempt]);
      }
      for (const [queue, attempts] of byQueue) await retry(queue, attempts);
    };
    this.sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      sweepOnce()
        .catch((error: unknown) => this.log.warn({ err: error }, 'job sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, seconds * 1_000);
    this.sweeper.unref();
  }

  /** The active attempts of these queues that no live process holds. */
  private async sweep(queues: readonly string[]): Promise<DeadAttempt[]> {
    const { rows } = await this.pool.query<DeadAttempt>(
      `SELECT j.id, j.name, j.retry_count AS "retryCount"
         FROM pgboss.job j
        WHERE j.state = 'active'
          AND j.name = ANY($1::text[])
          AND j.started_on < now() - make_interval(secs => $2)
          AND NOT EXISTS (
            SELECT 1 FROM pg_locks l
             WHERE l.locktype = 'advisory'
               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
               AND l.classid = $3::int::oid
               AND l.objid = hashtext(j.id::text)::oid
               AND l.objsubid = 2
               AND l.granted)`,
      [queues, STARTING_SECONDS, ATTEMPT_LOCK_KEY],
    );
    return rows;
  }

  /** Stops the sweep and ends the lock connection: every lock still held goes with it. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const client = await this.client?.catch(() => null);
    this.client = null;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  private async lock(jobId: string): Promise<boolean> {
    const client = await this.connection();
    const { rows } = await client.query<{ taken: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken',
      [ATTEMPT_LOCK_KEY, jobId],
    );
    // False only when another process's job has the same hash (one in four billion): that
    // attempt then counts as alive as long as the other one does.
    return rows[0]?.taken === true;
  }

  private async retake(jobId: string, count: number): Promise<void> {
    for (let taken = 0; taken < count; taken++) {
      if (!(await this.lock(jobId).catch(() => false))) return;
      this.held.set(jobId, taken + 1);
    }
  }

  private async release(jobId: string): Promise<void> {
    const count = this.held.get(jobId);
    if (count === undefined) return; // the connection was lost or closed: the lock with it
    if (count > 1) this.held.set(jobId, count - 1);
    else this.held.delete(jobId);
    const client = await this.client?.catch(() => null);
    await client
      ?.query('SELECT pg_advisory_unlock($1, hashtext($2))', [ATTEMPT_LOCK_KEY, jobId])
      .catch(() => undefined);
  }

  /** The lock connection, opened on first use and again after it was lost. */
  private connection(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('The job locks are closed.'));
    this.client ??= this.connect();
    return this.client;
  }

  private async connect(): Promise<pg.Client> {
    const { connectionString } = this.pool.options;
    const client = new pg.Client({
      connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      application_name: 'margins job locks',
    });
    const opening = client.connect().then(() => client);
    client.on('error', (error) => {
      if (this.closed) return;
      // Every lock went with the connection; the attempts still running take theirs again on
      // the next connection (a sweep may have retried one meanwhile: see the class comment).
      this.log.warn({ err: error }, 'the job locks’ connection was lost; reconnecting');
      const running = [...this.held.entries()];
      this.held.clear();
      this.client = null;
      void client.end().catch(() => undefined);
      for (const [jobId, count] of running) void this.retake(jobId, count);
    });
    opening.catch(() => {
      this.client = null;
    });
    return opening;
  }
}
