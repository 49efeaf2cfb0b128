import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Reply, ThreadsResponse } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { canSeeCommentText } from './policy.ts';
import { presentReply } from './thread-presenter.ts';
import { listReplies, reactionsOf } from './thread-queries.ts';
import type { CommentScope } from './scope.ts';

/**
 * Every reply and reaction of a manuscript this viewer may see: replies as presentReply allows
 * (private comments!), and reactions only on the comments and replies whose text they see.
 */
export async function listThreads(db: Executor, scope: CommentScope): Promise<ThreadsResponse> {
  const { viewer, manuscript } = scope;
  const [roots, replyRows] = await Promise.all([
    db
      .select({ id: schema.comments.id, authorId: schema.comments.authorId })
      .from(schema.comments)
      .where(
        and(
          eq(schema.comments.manuscriptId, manuscript.id),
          isNull(schema.comments.parentId),
          isNull(schema.comments.deletedAt),
        ),
      ),
    listReplies(db, manuscript.id),
  ]);
  const visibleReplies = replyRows.filter(({ reply }) =>
    canSeeCommentText(viewer, reply, manuscript),
  );
  const votes = new Map<number, -1 | 1>();
  if (viewer && visibleReplies.length > 0) {
    const rows = await db
      .select({ commentId: schema.commentVotes.commentId, value: schema.commentVotes.value })
      .from(schema.commentVotes)
      .where(
        and(
          eq(schema.commentVotes.userId, viewer.id),
          inArray(
            schema.commentVotes.commentId,
            visibleReplies.map(({ reply }) => reply.id),
          ),
        ),
      );
    for (const row of rows) votes.set(row.commentId, row.value === 1 ? 1 : -1);
  }
  const replies: Reply[] = visibleReplies.flatMap(({ reply, author }) => {
    const presented = presentReply(
      reply,
      author,
      viewer,
      manuscript,
      viewer ? (votes.get(reply.id) ?? 0) : undefined,
    );
    return presented ? [presented] : [];
  });
  const seen = [
    ...roots.filter((root) => canSeeCommentText(viewer, root, manuscript)).map((root) => root.id),
    ...replies.map((reply) => reply.id),
  ];
  return { replies, reactions: await reactionsOf(db, seen) };
}
