import { and, eq } from 'drizzle-orm';
import type { ReactionName, ReactionSet } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { loadComment } from './comment-service.ts';
import type { WriteOptions } from './events.ts';
import { authorizeThread } from './reply-service.ts';
import { reactionSetOf } from './thread-queries.ts';

/**
 * Adds (on) or removes (off) one reaction of the viewer on a comment or reply. Both are
 * idempotent — a double click adds it once — so the client toggles by saying which state it
 * wants, never "flip". Only a real change is broadcast.
 */
export async function setReaction(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  reaction: ReactionName,
  on: boolean,
  options: WriteOptions = {},
): Promise<ReactionSet> {
  const { scope, comment } = await loadComment(ctx, viewer, commentId, options);
  authorizeThread(scope, 'react', comment);
  const userId = scope.viewer!.id;
  await ctx.events.transaction(async (tx) => {
    const changed = on
      ? await tx
          .insert(schema.commentReactions)
          .values({ commentId, userId, reaction })
          .onConflictDoNothing()
          .returning({ commentId: schema.commentReactions.commentId })
      : await tx
          .delete(schema.commentReactions)
          .where(
            and(
              eq(schema.commentReactions.commentId, commentId),
              eq(schema.commentReactions.userId, userId),
              eq(schema.commentReactions.reaction, reaction),
            ),
          )
          .returning({ commentId: schema.commentReactions.commentId });
    if (changed.length === 0) return;
    await ctx.events.emit(tx, {
      type: 'reaction.changed',
      actorId: userId,
      originSocketId: options.originSocketId,
      payload: { manuscriptId: scope.manuscript.id, commentId },
      rows: { manuscript: scope.manuscript, target: comment },
    });
  });
  return reactionSetOf(ctx.db, commentId);
}
