import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { currentRequestId } from '../lib/request-context.ts';

/** What a handler knows about the attempt it runs. */
export interface JobAttempt {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
  /** True when a failure now will not be retried. */
  isLastAttempt: boolean;
}

/** A background job: an id (the queue name), a payload schema and a handler. */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType> {
  id: string;
  payload: Payload;
  /** Runs one attempt; throwing retries it (with backoff) until the retries are used up. */
  handler(ctx: AppContext, payload: z.infer<Payload>, attempt: JobAttempt): Promise<void>;
  /** Runs once when the job has failed for good: retries used up, or expired on its last attempt. */
  onFailed?(ctx: AppContext, payload: z.infer<Payload>): Promise<void>;
  /** How many attempts may run at once in this process (default 1). */
  concurrency?(ctx: AppContext): number;
  /**
   * How many attempts of one group (`send(…, { group })`, e.g. one user's jobs) may run at once
   * across every process; unset: no limit per group.
   */
  groupConcurrency?: number;
  /** Runs at start, before the workers: get ready (start and warm up threads, …). */
  prepare?(ctx: AppContext): Promise<void>;
  /** Runs at start, once the workers run: settle work whose job is gone. */
  recover?(ctx: AppContext): Promise<void>;
  /**
   * Runs on a cron schedule (pg-boss: one run per occurrence across every process on the
   * database, however many start it), with an empty payload.
   */
  schedule?: { cron: string; tz?: string };
}

/** Where a job's data keeps the id of the request that sent it (beside the payload). */
const REQUEST_ID_KEY = '_requestId';

/** A job's data: its payload, and the id of the request that sent it. */
export function sentData(data: unknown): { payload: unknown; requestId: string | undefined } {
  if (!data || typeof data !== 'object' || !(REQUEST_ID_KEY in data)) {
    return { payload: data, requestId: undefined };
  }
  const { [REQUEST_ID_KEY]: requestId, ...payload } = data as Record<string, unknown>;
  return { payload, requestId: typeof requestId === 'string' ? requestId : undefined };
}

/** A payload as sent: with the id of the request sending it, if one is (its jobs log it too). */
export function dataToSend(payload: object): object {
  const requestId = currentRequestId();
  return requestId ? { ...payload, [REQUEST_ID_KEY]: requestId } : payload;
}
