import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** A host name or IP literal with an optional port: nothing a forged header could hide in. */
const SAFE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origin the request was made to (protocol and host, as trustProxy allows), or null. */
export function requestOrigin(request: Pick<FastifyRequest, 'protocol' | 'host'>): string | null {
  const host = request.host;
  if (!host || !SAFE_HOST.test(host)) return null;
  return `${request.protocol}://${host.toLowerCase()}`;
}

const requestBase = new AsyncLocalStorage<string>();

/**
 * The base of links shown in a page or an API answer (share links): PUBLIC_URL when it is
 * set; otherwise the address the browser used for this request, so that a link copied from
 * http://127.0.0.1:3000 opens on 127.0.0.1 and not on the default localhost. Mails never
 * use this (they outlive the request): they always use config.publicUrl.
 */
export function linkBaseUrl(config: Pick<Config, 'publicUrl' | 'publicUrlSet'>): string {
  if (config.publicUrlSet) return config.publicUrl;
  return requestBase.getStore() ?? config.publicUrl;
}

/**
 * Runs each handler with its request's origin at hand for linkBaseUrl. In preHandler, after
 * the body is read: the body's stream events would leave an earlier context behind.
 */
export function registerLinkBase(app: FastifyInstance): void {
  if (app.ctx.config.publicUrlSet) return;
  app.addHook('preHandler', (request, _reply, done) => {
    const origin = requestOrigin(request);
    if (origin === null) {
      done();
      return;
    }
    requestBase.run(origin, done);
  });
}
