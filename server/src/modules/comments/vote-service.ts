import { and, eq, sql } from 'drizzle-orm';
import type { RankDirection } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { loadComment } from './comment-service.ts';
import type { WriteOptions } from './events.ts';
import type { AuthorFields, CommentRow } from './presenter.ts';
import { findAuthor } from './queries.ts';
import { authorize, type CommentScope } from './scope.ts';

/**
 * Votes on a comment: one vote per user, changeable. Voting the same way again keeps the vote as
 * it is (idempotent, so a retried rank_comment after a reconnect counts once); the other way
 * changes it. rank is the sum of the votes, kept in the comment row in the same transaction.
 */
export async function rankComment(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  dir: RankDirection,
  options: WriteOptions = {},
): Promise<{ scope: CommentScope; comment: CommentRow; author: AuthorFields; myVote: -1 | 1 }> {
  const loaded = await loadComment(ctx, viewer, commentId, options);
  const { scope } = loaded;
  authorize(scope, 'rank', loaded.comment);
  const value = dir === 'up' ? 1 : -1;
  const voterId = scope.viewer!.id;
  const { comment } = await ctx.events.transaction(async (tx) => {
    // Votes on one comment take turns on its row, so the sum below counts every committed vote.
    const [locked] = await tx
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.id, commentId))
      .for('update');
    if (!locked || locked.deletedAt !== null) throw notFound();
    const [previous] = await tx
      .select({ value: schema.commentVotes.value })
      .from(schema.commentVotes)
      .where(
        and(eq(schema.commentVotes.commentId, commentId), eq(schema.commentVotes.userId, voterId)),
      );
    if (previous?.value === value) return { comment: locked, changed: false };
    await tx
      .insert(schema.commentVotes)
      .values({ commentId, userId: voterId, value })
      .onConflictDoUpdate({
        target: [schema.commentVotes.commentId, schema.commentVotes.userId],
        set: { value, updatedAt: sql`now()` },
      });
    const [updated] = await tx
      .update(schema.comments)
      .set({
        rank: sql`(select coalesce(sum(${schema.commentVotes.value}), 0)::int from ${schema.commentVotes} where ${schema.commentVotes.commentId} = ${commentId})`,
        changedAt: sql`now()`,
      })
      .where(eq(schema.comments.id, commentId))
      .returning();
    if (loaded.comment.parentId !== null) {
      // A reply's vote reaches only those who may see the reply (issue 16).
      await ctx.events.emit(tx, {
        type: 'reply.ranked',
        actorId: voterId,
        originSocketId: options.originSocketId,
        payload: {
          manuscriptId: scope.manuscript.id,
          replyId: commentId,
          commentId: loaded.comment.parentId,
          dir,
          rank: updated!.rank,
        },
        rows: {
          manuscript: scope.manuscript,
          reply: { ...updated!, threadAuthorId: loaded.comment.threadAuthorId },
        },
      });
      return { comment: updated!, changed: true };
    }
    await ctx.events.emit(tx, {
      type: 'comment.ranked',
      actorId: voterId,
      originSocketId: options.originSocketId,
      payload: { manuscriptId: scope.manuscript.id, commentId, dir, rank: updated!.rank },
      rows: { manuscript: scope.manuscript },
    });
    return { comment: updated!, changed: true };
  });
  const threaded = { ...comment, threadAuthorId: loaded.comment.threadAuthorId };
  return {
    scope,
    comment: threaded,
    author: await findAuthor(ctx.db, comment.authorId),
    myVote: value,
  };
}
