import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MODERATION_MESSAGES, SESSION_COOKIE } from '@margins/common';
import { forbidden } from '../../lib/http-errors.ts';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { rotateCsrfToken } from '../../plugins/csrf.ts';
import { secureCookies } from '../../plugins/security-headers.ts';
import { sessionCacheOf } from './session-cache.ts';

const SESSION_DAYS = 30;

/** Starts a new session (a fresh id every login) and sets the signed httpOnly cookie. */
export async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  // Every way in (password, log-in link, e-mail confirmation) ends here.
  if (user.suspendedAt)
    throw forbidden(MODERATION_MESSAGES.accountSuspended(user.suspensionReason));
  if (request.sessionId) await endSession(ctx, request, reply);
  const token = randomToken();
  const id = hashToken(token);
  await ctx.db.insert(schema.sessions).values({
    id,
    userId: user.id,
    expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  });
  request.sessionId = id;
  request.user = user;
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    secure: secureCookies(request),
    maxAge: SESSION_DAYS * 86_400,
  });
  rotateCsrfToken(request, reply);
}

/** Deletes the session server-side and clears the cookie. */
export async function endSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.sessionId) {
    await ctx.db.delete(schema.sessions).where(eq(schema.sessions.id, request.sessionId));
    // Refused at once here; other processes learn it from the sessions trigger.
    sessionCacheOf(ctx).forgetSession(request.sessionId);
    ctx.realtime.endSession(request.sessionId);
  }
  request.sessionId = null;
  request.user = null;
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  rotateCsrfToken(request, reply);
}

/** The session id (the token's hash) of a signed session cookie, or null for a bad one. */
export function sessionIdOfCookie(
  unsign: (value: string) => { valid: boolean; value: string | null },
  cookieValue: string | undefined,
): string | null {
  if (!cookieValue) return null;
  const unsigned = unsign(cookieValue);
  if (!unsigned.valid || !unsigned.value) return null;
  return hashToken(unsigned.value);
}

/**
 * The users of live sessions, by session id, in one query (the socket handshakes of a join
 * storm ask together); an ended, expired or suspended one is missing. Answered from the session
 * cache where it can be (session-cache.ts says how a change reaches it).
 */
export async function usersOfSessions(
  ctx: AppContext,
  ids: string[],
): Promise<Map<string, UserRow>> {
  if (ids.length === 0) return new Map();
  const cache = sessionCacheOf(ctx);
  const found = new Map<string, UserRow>();
  const missing: string[] = [];
  for (const id of ids) {
    const user = cache.get(id);
    if (user) found.set(id, user);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const epoch = cache.mark();
  const rows = await ctx.db
    .select({
      sessionId: schema.sessions.id,
      expiresAt: schema.sessions.expiresAt,
      user: schema.users,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(
      and(
        inArray(schema.sessions.id, missing),
        gt(schema.sessions.expiresAt, new Date()),
        // Suspension deletes the sessions; this covers one made in the same instant.
        isNull(schema.users.suspendedAt),
      ),
    );
  for (const row of rows) {
    found.set(row.sessionId, row.user);
    cache.keep(epoch, row.sessionId, row.user, row.expiresAt);
  }
  return found;
}
