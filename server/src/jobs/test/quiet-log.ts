import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';

/** A logger that drops everything: for a job queue run outside an app. */
export const quietLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => quietLog,
} as unknown as FastifyBaseLogger;

/** What a job queue reads of the app's context when no job of its own needs more. */
export const bareContext = {
  metrics: { jobStarted: () => undefined, jobFinished: () => undefined },
} as unknown as AppContext;
