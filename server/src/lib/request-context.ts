import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The request id that follows a request into what it causes: the events its writes dispatch,
 * the jobs it sends (queue.ts keeps the id with the job), and their log lines, on whichever
 * process runs them. A request's own lines carry Fastify's `reqId`; every other line logged
 * while its work runs gets the same `reqId` from the logger's mixin (app.ts).
 */
const storage = new AsyncLocalStorage<string>();

/** A balancer's X-Request-Id is kept when it looks like one (no log injection), else a new one. */
const INCOMING_ID = /^[\w.:-]{8,100}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/** Fastify's genReqId: the balancer's id or a new UUID (unique across processes). */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Runs `work` (and everything it starts) as caused by request `id`. */
export function withRequestId<T>(id: string | undefined, work: () => T): T {
  return id ? storage.run(id, work) : work();
}

/** The id of the request whose work is running, if any. */
export const currentRequestId = (): string | undefined => storage.getStore();

/**
 * The logger's mixin: `reqId` on a line logged during a request's work, unless the logger is
 * already the request's own (it has the binding).
 */
export function requestIdMixin(
  _merge: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): object {
  const id = storage.getStore();
  return id && !('reqId' in logger.bindings()) ? { reqId: id } : {};
}
