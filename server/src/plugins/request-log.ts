import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { REQUEST_ID_HEADER, withRequestId } from '../lib/request-context.ts';
import { METRICS_PATH } from './metrics.ts';

const QUIET = /^\/(healthz|readyz|favicon\.ico)(\?|$)|^\/(assets|static)\//;

/**
 * One log line per request, when it is answered: method, path, status and milliseconds.
 * Fastify's own controller writes two (on arrival and on answer), each through the request and
 * response serializers and the redaction of the cookie headers: more than the cheapest
 * request's own work. Errors are logged as Fastify does. A request that never answers is not
 * logged, nor a scrape of the metrics (every few seconds; a refused one is logged as the 404 of
 * an unknown path).
 */
export class RequestLog extends LogController {
  /**
   * `quiet` (outside production): no lines for the probes (/healthz, /readyz) and the static
   * files (/assets/, /static/, /favicon.ico), which a page load or a balancer asks for by the
   * dozen; errors among them are still logged.
   */
  constructor(private readonly options: { quiet?: boolean } = {}) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (request.routeOptions.url === METRICS_PATH) return;
    if (this.options.quiet && reply.statusCode < 400 && QUIET.test(request.url)) return;
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  }
}

/**
 * Every answer says its request id (X-Request-Id: the balancer's, or ours), and the route's work
 * runs as caused by it (lib/request-context.ts): the events and jobs it causes log it too.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => withRequestId(request.id, done));
}
