import { and, eq, sql } from 'drizzle-orm';
import { MODERATION_MESSAGES } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { assertModerator, type ModerationActor } from './policy.ts';
import { parseReason } from './reason.ts';

type ReportModel = 'manuscript' | 'comment';

/**
 * Closes the open reports on one element: a moderator decided (flag or clear), so it leaves
 * the queue, and the staff reading rule stops letting staff open it.
 */
export async function resolveOpenReports(
  tx: Tx,
  actor: ModerationActor,
  model: ReportModel,
  elementId: number,
): Promise<number> {
  const closed = await tx
    .update(schema.reports)
    .set({
      status: 'resolved',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(schema.reports.modelName, model),
        eq(schema.reports.reportElementId, elementId),
        eq(schema.reports.status, 'open'),
      ),
    )
    .returning({ id: schema.reports.id });
  return closed.length;
}

/** Sets or clears a manuscript's flag; readers see SPEC's notice, the author gets a mail. */
async function setManuscriptFlag(
  ctx: AppContext,
  actorInput: { id: number; role: string },
  manuscriptId: number,
  reason: string | null,
): Promise<void> {
  const actor = assertModerator(actorInput);
  await ctx.events.transaction(async (tx) => {
    const [manuscript] = await tx
      .update(schema.manuscripts)
      .set({
        moderationFlag: reason !== null,
        moderationReason: reason,
        updatedAt: sql`now()`,
      })
      .where(eq(schema.manuscripts.id, manuscriptId))
      .returning();
    if (!manuscript) throw notFound(MODERATION_MESSAGES.notFound('manuscript'));
    await resolveOpenReports(tx, actor, 'manuscript', manuscriptId);
    const [author] = await tx
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, manuscript.userId));
    await ctx.events.emit(tx, {
      type: 'manuscript.flagged',
      actorId: actor.id,
      payload: { manuscriptId, flagged: reason !== null, reason },
      rows: { manuscript, author: author! },
    });
  });
}

/** Flags a manuscript with a reason (SPEC: "This manuscript was flagged by our moderators…"). */
export async function flagManuscript(
  ctx: AppContext,
  actor: { id: number; role: string },
  manuscriptId: number,
  reason: unknown,
): Promise<void> {
  return setManuscriptFlag(ctx, actor, manuscriptId, parseReason(reason));
}

/** Clears a manuscript's flag. */
export async function clearManuscriptFlag(
  ctx: AppContext,
  actor: { id: number; role: string },
  manuscriptId: number,
): Promise<void> {
  return setManuscriptFlag(ctx, actor, manuscriptId, null);
}

async function setCommentFlag(
  ctx: AppContext,
  actorInput: { id: number; role: string },
  commentId: number,
  reason: string | null,
): Promise<void> {
  const actor = assertModerator(actorInput);
  await ctx.events.transaction(async (tx) => {
    // changed_at moves: a reader catching up (?since=) gets the flag too.
    const [comment] = await tx
      .update(schema.comments)
      .set({ moderationFlag: reason !== null, moderationReason: reason, changedAt: sql`now()` })
      .where(eq(schema.comments.id, commentId))
      .returning();
    if (!comment || comment.deletedAt) throw notFound(MODERATION_MESSAGES.notFound('comment'));
    await resolveOpenReports(tx, actor, 'comment', commentId);
    const [manuscript] = await tx
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, comment.manuscriptId));
    const [author] = await tx
      .select({
        id: schema.users.id,
        displayName: schema.users.displayName,
        handle: schema.users.handle,
        pictureMediaId: schema.users.pictureMediaId,
      })
      .from(schema.users)
      .where(eq(schema.users.id, comment.authorId));
    await ctx.events.emit(tx, {
      type: 'comment.flagged',
      actorId: actor.id,
      payload: { manuscriptId: comment.manuscriptId, commentId, flagged: reason !== null },
      rows: { manuscript: manuscript!, comment, author: author! },
    });
  });
}

/** Flags a comment: its text goes behind a reveal with the reason, live in the room. */
export async function flagComment(
  ctx: AppContext,
  actor: { id: number; role: string },
  commentId: number,
  reason: unknown,
): Promise<void> {
  return setCommentFlag(ctx, actor, commentId, parseReason(reason));
}

/** Clears a comment's flag. */
export async function clearCommentFlag(
  ctx: AppContext,
  actor: { id: number; role: string },
  commentId: number,
): Promise<void> {
  return setCommentFlag(ctx, actor, commentId, null);
}
