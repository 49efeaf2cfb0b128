import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, MESSAGES, STATE_CHANGING_GETS } from '@margins/common';
import { forbidden } from '../lib/http-errors.ts';
import { randomToken } from '../lib/tokens.ts';
import { secureCookies } from './security-headers.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The GET routes that change state (common/src/csrf.ts, the list the web client reads too). */
const CHANGING_GETS = new Set<string>(STATE_CHANGING_GETS);

/**
 * Double-submit CSRF: a readable csrf_token cookie, echoed in the x-csrf-token header on
 * every state-changing call (and the GET routes of STATE_CHANGING_GETS, or marked `config.csrf`).
 */
export function registerCsrf(app: FastifyInstance): void {
  // Not async: nothing here waits, and a cached answer's request passes through it too.
  app.addHook('onRequest', (request, reply, done) => {
    let token = request.cookies[CSRF_COOKIE];
    if (!token || token.length < 20) token = rotateCsrfToken(request, reply);
    const needsToken =
      !SAFE_METHODS.has(request.method) ||
      request.routeOptions.config?.csrf ||
      CHANGING_GETS.has(request.routeOptions.url ?? '');
    if (!needsToken || request.routeOptions.config?.csrf === false) {
      done();
      return;
    }
    const header = request.headers[CSRF_HEADER];
    done(
      typeof header !== 'string' || !safeEqual(header, token)
        ? forbidden(MESSAGES.csrfRefused)
        : undefined,
    );
  });
}

/**
 * Sets a fresh CSRF token (answered as the readable cookie); returns it. Called when the token is
 * missing and whenever the session changes hands (log in, log out), so that a token someone
 * planted or read before the log-in is worth nothing after it.
 */
export function rotateCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const token = randomToken(24);
  request.cookies[CSRF_COOKIE] = token;
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: secureCookies(request),
  });
  return token;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
