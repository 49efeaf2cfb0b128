import { eq, sql } from 'drizzle-orm';
import { MODERATION_MESSAGES } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { assertModerator } from './policy.ts';
import { parseReason } from './reason.ts';

/**
 * Suspends a user: they cannot log in (auth refuses with the reason), every session is deleted
 * now and its sockets closed after commit (user.suspended), and their manuscripts leave
 * Discover and their public profile (both read users.suspended_at). Staff are not suspended:
 * an admin changes their role first.
 */
export async function suspendUser(
  ctx: AppContext,
  actorInput: { id: number; role: string },
  userId: number,
  reasonInput: unknown,
): Promise<void> {
  const actor = assertModerator(actorInput);
  const reason = parseReason(reasonInput);
  await ctx.events.transaction(async (tx) => {
    const [user] = await tx.select().from(schema.users).where(eq(schema.users.id, userId));
    if (!user) throw notFound(MODERATION_MESSAGES.notFound('user'));
    if (user.role !== 'user') throw new HttpError(409, MODERATION_MESSAGES.cannotSuspendStaff);
    await tx
      .update(schema.users)
      .set({
        // A second suspension keeps the first date (the reason is the latest).
        suspendedAt: sql`coalesce(${schema.users.suspendedAt}, now())`,
        suspensionReason: reason,
        updatedAt: sql`now()`,
      })
      .where(eq(schema.users.id, userId));
    const ended = await tx
      .delete(schema.sessions)
      .where(eq(schema.sessions.userId, userId))
      .returning({ id: schema.sessions.id });
    await ctx.events.emit(tx, {
      type: 'user.suspended',
      actorId: actor.id,
      payload: { userId, sessionIds: ended.map((session) => session.id) },
    });
  });
}

/** Lifts a suspension: they may log in again, and their manuscripts are listed again. */
export async function liftSuspension(
  ctx: AppContext,
  actorInput: { id: number; role: string },
  userId: number,
): Promise<void> {
  const actor = assertModerator(actorInput);
  await ctx.events.transaction(async (tx) => {
    const [user] = await tx
      .update(schema.users)
      .set({ suspendedAt: null, suspensionReason: null, updatedAt: sql`now()` })
      .where(eq(schema.users.id, userId))
      .returning({ id: schema.users.id });
    if (!user) throw notFound(MODERATION_MESSAGES.notFound('user'));
    await ctx.events.emit(tx, {
      type: 'user.unsuspended',
      actorId: actor.id,
      payload: { userId },
    });
  });
}
