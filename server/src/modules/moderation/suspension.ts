import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { MODERATION_MESSAGES } from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { assertModerator } from './policy.ts';
import { parseReason } from './reason.ts';

type Actor = { id: number; role: string };

/**
 * Suspends these users in the caller's transaction (opened with ctx.events.transaction): they
 * cannot log in (auth refuses with the reason), every session is deleted now and its sockets
 * closed after commit (user.suspended), and their manuscripts leave Discover and their public
 * profile (both read users.suspended_at). Staff are skipped: an admin changes their role
 * first. Returns how many were suspended.
 */
export async function suspendUsers(
  ctx: AppContext,
  tx: EventTx,
  actorInput: Actor,
  ids: number[],
  reason: string | null,
): Promise<number> {
  const actor = assertModerator(actorInput);
  if (ids.length === 0) return 0;
  const members = await tx
    .update(schema.users)
    .set({
      // A second suspension keeps the first date (the reason is the latest).
      suspendedAt: sql`coalesce(${schema.users.suspendedAt}, now())`,
      suspensionReason: reason,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(schema.users.id, ids), eq(schema.users.role, 'user')))
    .returning({ id: schema.users.id });
  for (const { id: userId } of members) {
    const ended = await tx
      .delete(schema.sessions)
      .where(eq(schema.sessions.userId, userId))
      .returning({ id: schema.sessions.id });
    await ctx.events.emit(tx, {
      type: 'user.suspended',
      actorId: actor.id,
      payload: { userId, sessionIds: ended.map((session) => session.id) },
    });
  }
  return members.length;
}

/** Lifts these users' suspensions: they may log in again, their manuscripts are listed again. */
export async function liftSuspensions(
  ctx: AppContext,
  tx: EventTx,
  actorInput: Actor,
  ids: number[],
): Promise<number> {
  const actor = assertModerator(actorInput);
  if (ids.length === 0) return 0;
  const lifted = await tx
    .update(schema.users)
    .set({ suspendedAt: null, suspensionReason: null, updatedAt: sql`now()` })
    .where(and(inArray(schema.users.id, ids), isNotNull(schema.users.suspendedAt)))
    .returning({ id: schema.users.id });
  for (const { id: userId } of lifted) {
    await ctx.events.emit(tx, { type: 'user.unsuspended', actorId: actor.id, payload: { userId } });
  }
  return lifted.length;
}

/** Suspends one user (404 unknown, 409 staff). */
export async function suspendUser(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  reasonInput: unknown,
): Promise<void> {
  assertModerator(actor);
  const reason = parseReason(reasonInput);
  await ctx.events.transaction(async (tx) => {
    const [user] = await tx.select().from(schema.users).where(eq(schema.users.id, userId));
    if (!user) throw notFound(MODERATION_MESSAGES.notFound('user'));
    if (user.role !== 'user') throw new HttpError(409, MODERATION_MESSAGES.cannotSuspendStaff);
    await suspendUsers(ctx, tx, actor, [userId], reason);
  });
}

/** Lifts one user's suspension (404 unknown). */
export async function liftSuspension(ctx: AppContext, actor: Actor, userId: number): Promise<void> {
  assertModerator(actor);
  await ctx.events.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    if (!user) throw notFound(MODERATION_MESSAGES.notFound('user'));
    await liftSuspensions(ctx, tx, actor, [userId]);
  });
}
