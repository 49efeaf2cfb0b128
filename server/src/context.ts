import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/index.ts';
import type { ConversionPool } from './jobs/conversion-pool.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Mailer } from './lib/mail.ts';
import type { RateLimiter } from './lib/rate-limit.ts';
import type { FailureThrottle } from './lib/throttle.ts';
import type { Realtime } from './realtime/index.ts';
import type { schema } from './db/index.ts';

export type UserRow = typeof schema.users.$inferSelect;

/** What every module gets: configuration and the shared services. */
export interface AppContext {
  config: Config;
  /** The server's logger (pino through Fastify), for work outside a request. */
  log: FastifyBaseLogger;
  database: Database;
  db: Db;
  mailer: Mailer;
  /** Background jobs (pg-boss in the same database). */
  jobs: JobQueue;
  /** The worker-thread pool that converts uploaded documents. */
  converter: ConversionPool;
  /** Socket.IO rooms: comment events fan out here; evictFromRoom() for revoked access. */
  realtime: Realtime;
  /** Kept in the database: every process on it shares one count. */
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
