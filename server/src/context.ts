import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { z } from 'zod';
import type { Database, Db, Executor, Tx } from './db/index.ts';
import type { DomainEvent, EventType } from './events/definitions.ts';
import type { ConversionPool } from './jobs/conversion-pool.ts';
import type { Mailer } from './lib/mail.ts';
import type { RateLimiter } from './lib/rate-limit.ts';
import type { FailureThrottle } from './lib/throttle.ts';
import type { schema } from './db/index.ts';

export type UserRow = typeof schema.users.$inferSelect;

// The shared services as the modules see them: interfaces, so that this file (which every module
// imports) imports none of the classes that implement them, nor the modules those import.

/** A job as a writer names it: its queue id and payload schema (jobs/queue.ts JobDefinition). */
export interface JobRef<Payload extends z.ZodType = z.ZodType> {
  id: string;
  payload: Payload;
}

/** Background jobs (pg-boss in the same database; jobs/queue.ts JobQueue). */
export interface Jobs {
  /** Enqueues a job in the transaction that creates its work; call wake() after the commit. */
  send<Payload extends z.ZodType>(
    tx: Executor,
    job: JobRef<Payload>,
    payload: z.input<Payload>,
    options?: { id?: string },
  ): Promise<string>;
  /** Tells this process's workers to look for work now rather than at their next poll. */
  wake(job: JobRef): void;
  /** The job's state, or null when the queue no longer has it. */
  stateOf(job: JobRef, jobId: string): Promise<string | null>;
  /** True from a successful start until stop() (readiness: launch/lifecycle.ts). */
  readonly running: boolean;
}

/** The socket rooms (realtime/index.ts Realtime), for what is not an event of a change. */
export interface RealtimeRooms {
  /** Disconnects every socket opened with a session that has just ended (logout). */
  endSession(sessionId: string): void;
  /** Removes a user's sockets from a manuscript room (their access ended). */
  evictFromRoom(manuscriptId: number, userId: number): Promise<void>;
  /** Checks everyone in a manuscript room against the reading policy again. */
  recheckRoom(manuscriptId: number): Promise<{ users: number[]; anonymous: boolean }>;
}

/**
 * What the server measures as it works, for `GET /metrics` (plugins/metrics.ts AppMetrics). Only
 * names and timings: never a payload, an id or anything a person wrote.
 */
export interface Measurements {
  /** A socket event arrived (one the server handles): its name only. */
  socketEvent(event: string): void;
  /** A job attempt started, `waitSeconds` after it could first have started. */
  jobStarted(queue: string, waitSeconds: number): void;
  /** A job attempt ended after `seconds`. */
  jobFinished(queue: string, seconds: number, outcome: 'completed' | 'failed'): void;
  /** A document was converted, or refused as one that cannot be, in `seconds`. */
  conversion(format: string, seconds: number, outcome: 'converted' | 'refused'): void;
}

declare const eventTransaction: unique symbol;
/**
 * A transaction opened by ctx.events.transaction(): the only handle emit() takes, so an event
 * is written in the transaction of its change and cannot outlive (or miss) it. Neither `ctx.db`
 * (each statement commits alone: a crash after it loses the event) nor a bare
 * `db.transaction()` handle (nobody writes its events' rows) is one.
 */
export type EventTx = Tx & { readonly [eventTransaction]: true };

/** Domain events after commit (events/bus.ts EventBus). */
export interface DomainEvents {
  /**
   * Records what the change written in `tx` did: its in-transaction subscribers run now, its
   * row is written in `tx`, the after-commit subscribers run once `tx` has committed.
   */
  emit(tx: EventTx, event: DomainEvent): Promise<void>;
  /**
   * A change and its event's row written in one statement by `write` (a data-modifying CTE,
   * outbox.ts eventRowInsert), which answers the event (null: nothing written); its after-commit
   * subscribers run then. Refused, before `write` runs, for events with in-transaction subscribers.
   */
  emitWritten<Type extends EventType>(
    type: Type,
    write: () => Promise<(DomainEvent<Type> & { eventId: number }) | null>,
  ): Promise<void>;
  /**
   * ctx.db.transaction(work), then the after-commit subscribers of the events it emitted. Given
   * the caller's open transaction (`joining`), `work` runs in that one instead: a command called
   * inside a larger change (an admin write with its audit row) commits, and dispatches, with it.
   */
  transaction<Result>(
    work: (tx: EventTx) => Promise<Result>,
    joining?: EventTx | undefined,
  ): Promise<Result>;
  /** Dispatches event rows a dead process left undispatched (older than the grace); how many. */
  recover(options?: { graceSeconds?: number }): Promise<number>;
  /** Deletes dispatched event rows past their retention; how many. */
  prune(): Promise<number>;
}

/** What every module gets: configuration and the shared services. */
export interface AppContext {
  config: Config;
  /** The server's logger (pino through Fastify), for work outside a request. */
  log: FastifyBaseLogger;
  database: Database;
  db: Db;
  mailer: Mailer;
  /** Background jobs (pg-boss in the same database). */
  jobs: Jobs;
  /** The worker-thread pool that converts uploaded documents. */
  converter: ConversionPool;
  /** Socket.IO rooms (the fan-out of changes subscribes to `events`). */
  realtime: RealtimeRooms;
  /** Domain events: a writer emits one; socket fan-out, evictions and notifications follow. */
  events: DomainEvents;
  /** Whether this process takes new work: draining after a SIGTERM (launch/drain.ts). */
  lifecycle: { readonly draining: boolean; startDraining(): void };
  /** Counts and timings for GET /metrics. */
  metrics: Measurements;
  /**
   * Kept in the database: every process on it shares one count (comment writes on the
   * embedded database, one process, in memory).
   */
  limits: {
    /** Failed log-ins per IP: growing delays, no hard lock. */
    loginPerIp: FailureThrottle;
    /** Failed log-ins per account ("account:<email>") or known device ("device:<hash>"). */
    loginPerAccount: FailureThrottle;
    signupPerIp: RateLimiter;
    mailPerAccount: RateLimiter;
    commentWritesPerUser: RateLimiter;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The logged-in user, or null. */
    user: UserRow | null;
    /** The session id (SHA-256 of the cookie token), or null. */
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** A GET that changes state and so needs the CSRF header (API.md). */
    csrf?: boolean;
  }
}
