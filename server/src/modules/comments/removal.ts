// Deleting a comment or a reply, written once (issue 34: one writer per change): its writer's
// and the manuscript owner's deletes (comment-service.ts, reply-service.ts) and staff's (the
// admin area's comment section and report queue) all call tombstoneComment.
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext, EventTx } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import type { WriteOptions } from './events.ts';
import type { CommentScope } from './scope.ts';
import type { ThreadComment } from './thread-queries.ts';

/** What a delete did; null when the comment was already gone (nothing changed, no event). */
type Tombstoned = { highlightRemoved: boolean } | null;

/**
 * Soft-deletes a comment or a reply (a tombstone, for catch-up) with its event: reply.deleted
 * for a reply; comment.deleted for a comment, whose highlight goes too when it was the
 * comment writer's own and no live comment is left on it (it was made for that comment). Who
 * may delete is the caller's to check. In the caller's transaction when `joining` is given.
 */
export async function tombstoneComment(
  ctx: AppContext,
  actorId: number | null,
  target: ThreadComment,
  manuscript: ManuscriptRow,
  options: WriteOptions = {},
  joining?: EventTx,
): Promise<Tombstoned> {
  return ctx.events.transaction(async (tx) => {
    const [gone] = await tx
      .update(schema.comments)
      .set({ deletedAt: sql`now()`, changedAt: sql`now()` })
      .where(and(eq(schema.comments.id, target.id), isNull(schema.comments.deletedAt)))
      .returning({ id: schema.comments.id });
    if (!gone) return null;
    const origin = { actorId, originSocketId: options.originSocketId };
    if (target.parentId !== null) {
      await ctx.events.emit(tx, {
        type: 'reply.deleted',
        ...origin,
        payload: { manuscriptId: manuscript.id, replyId: target.id, commentId: target.parentId },
        rows: { manuscript, reply: target },
      });
      return { highlightRemoved: false };
    }
    const highlightRemoved = await removeUnusedHighlight(tx, target.selectionId, target.authorId);
    await ctx.events.emit(tx, {
      type: 'comment.deleted',
      ...origin,
      payload: {
        manuscriptId: manuscript.id,
        commentId: target.id,
        selectionId: target.selectionId,
        highlightRemoved,
      },
      rows: { manuscript },
    });
    return { highlightRemoved };
  }, joining);
}

/** A delete by the viewer of `scope` (its writer, or the manuscript's owner); 404 when it went meanwhile. */
export async function tombstoneInScope(
  ctx: AppContext,
  scope: CommentScope,
  target: ThreadComment,
  options: WriteOptions,
): Promise<{ highlightRemoved: boolean }> {
  const done = await tombstoneComment(
    ctx,
    scope.viewer?.id ?? null,
    target,
    scope.manuscript,
    options,
  );
  if (!done) throw notFound();
  return done;
}

/** Soft-deletes the highlight if it is `ownerId`'s and has no live comment left. */
export async function removeUnusedHighlight(
  tx: Executor,
  selectionId: string,
  ownerId: number,
): Promise<boolean> {
  // Lock the highlight so a comment being added to it at the same moment waits for us.
  const [highlight] = await tx
    .select({ userId: schema.highlights.userId, deletedAt: schema.highlights.deletedAt })
    .from(schema.highlights)
    .where(eq(schema.highlights.id, selectionId))
    .for('update');
  if (!highlight || highlight.deletedAt !== null || highlight.userId !== ownerId) return false;
  const [left] = await tx
    .select({ total: count() })
    .from(schema.comments)
    .where(
      and(
        eq(schema.comments.selectionId, selectionId),
        isNull(schema.comments.deletedAt),
        isNull(schema.comments.parentId),
      ),
    );
  if ((left?.total ?? 0) > 0) return false;
  await tx
    .update(schema.highlights)
    .set({ deletedAt: sql`now()`, changedAt: sql`now()` })
    .where(eq(schema.highlights.id, selectionId));
  return true;
}
