import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { loadComment } from './comment-service.ts';
import type { WriteOptions } from './events.ts';
import { findAuthor, voteOf } from './queries.ts';
import { authorizeThread } from './reply-service.ts';
import type { AuthorFields, CommentRow } from './presenter.ts';
import type { CommentScope } from './scope.ts';

/**
 * Resolves (resolved true) or reopens a comment's thread: the manuscript's owner only. Doing it
 * twice changes nothing the second time (the first resolution time is kept).
 */
export async function setResolved(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  resolved: boolean,
  options: WriteOptions = {},
): Promise<{ scope: CommentScope; comment: CommentRow; author: AuthorFields; myVote: -1 | 0 | 1 }> {
  const { scope, comment } = await loadComment(ctx, viewer, commentId, options);
  authorizeThread(scope, 'resolve', comment);
  let row: CommentRow = comment;
  if ((comment.resolvedAt !== null) !== resolved) {
    row = await ctx.events.transaction(async (tx) => {
      const [updated] = await tx
        .update(schema.comments)
        .set(
          resolved
            ? { resolvedAt: sql`now()`, resolvedById: scope.viewer!.id, changedAt: sql`now()` }
            : { resolvedAt: null, resolvedById: null, changedAt: sql`now()` },
        )
        .where(and(eq(schema.comments.id, comment.id), isNull(schema.comments.deletedAt)))
        .returning();
      if (!updated) throw notFound();
      await ctx.events.emit(tx, {
        type: 'comment.resolved',
        actorId: scope.viewer!.id,
        originSocketId: options.originSocketId,
        payload: {
          manuscriptId: scope.manuscript.id,
          commentId: updated.id,
          resolvedAt: updated.resolvedAt ? updated.resolvedAt.toISOString() : null,
        },
        rows: { manuscript: scope.manuscript },
      });
      return updated;
    });
  }
  return {
    scope,
    comment: row,
    author: await findAuthor(ctx.db, row.authorId),
    myVote: await voteOf(ctx.db, scope.viewer!.id, row.id),
  };
}
