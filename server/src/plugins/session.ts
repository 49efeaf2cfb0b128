import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES, SESSION_COOKIE } from '@margins/common';
import { changeListenerOf, closeChangeListener } from '../db/change-listener.ts';
import { closeSessionCache, sessionCacheOf } from '../modules/auth/session-cache.ts';
import { SessionIds } from '../modules/auth/session-ids.ts';
import { usersOfSessions } from '../modules/auth/sessions.ts';
import { forbidden, unauthorized } from '../lib/http-errors.ts';
import type { UserRow } from '../context.ts';

/**
 * Attaches request.user from the session cookie on every request, through the session cache
 * (modules/auth/session-cache.ts). The process's change listener (db/change-listener.ts), which
 * that cache and the access decisions rely on, starts once the app is ready without holding the
 * start back: until it listens, every session lookup reads the database.
 */
export function registerSession(app: FastifyInstance): void {
  const { ctx } = app;
  app.addHook('onReady', async () => {
    void changeListenerOf(ctx).start();
  });
  app.addHook('onClose', async () => {
    closeSessionCache(ctx);
    await closeChangeListener(ctx);
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  const sessionIds = new SessionIds((value) => app.unsignCookie(value));
  const attach = (request: FastifyRequest, id: string | null, user: UserRow | undefined) => {
    request.user = user ?? null;
    request.sessionId = user ? id : null;
  };
  // Not async: a session the cache holds (most requests) is attached in the same turn.
  app.addHook('onRequest', (request, _reply, done) => {
    const id = sessionIds.of(request.cookies[SESSION_COOKIE]);
    const cached = id === null ? undefined : sessionCacheOf(app.ctx).get(id);
    if (id === null || cached) {
      attach(request, id, cached);
      done();
      return;
    }
    usersOfSessions(app.ctx, [id]).then((users) => {
      attach(request, id, users.get(id));
      done();
    }, done);
  });
}

/** The logged-in user, or 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * The logged-in user with a confirmed e-mail address, or 401/403. An unconfirmed address may
 * log in and look around, but not upload or invite: those put our mail and storage to work for
 * an address nobody has shown to be theirs.
 */
export function requireVerifiedUser(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.emailVerifiedAt) throw forbidden(MESSAGES.emailUnverified);
  return user;
}
