import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReactionName, ReactionSet } from '@margins/common';
import { REACTION_NAMES } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import type { AuthorFields, CommentRow } from './presenter.ts';

/** A comment row, and for a reply the writer of the comment it answers (the policy needs both). */
export type ThreadComment = CommentRow & { threadAuthorId: number | null };

export const authorColumns = {
  id: schema.users.id,
  displayName: schema.users.displayName,
  handle: schema.users.handle,
  pictureMediaId: schema.users.pictureMediaId,
};

/** A comment or reply with its thread's writer; null when there is no such row. */
export async function findCommentInThread(db: Executor, id: number): Promise<ThreadComment | null> {
  const parent = alias(schema.comments, 'parent');
  const [row] = await db
    .select({ comment: schema.comments, threadAuthorId: parent.authorId })
    .from(schema.comments)
    .leftJoin(parent, eq(parent.id, schema.comments.parentId))
    .where(eq(schema.comments.id, id));
  if (!row) return null;
  return { ...row.comment, threadAuthorId: row.threadAuthorId };
}

/** The live replies of a manuscript whose comment is live, oldest first, with their writers. */
export async function listReplies(
  db: Executor,
  manuscriptId: number,
): Promise<Array<{ reply: ThreadComment; author: AuthorFields }>> {
  const parent = alias(schema.comments, 'parent');
  const rows = await db
    .select({ reply: schema.comments, threadAuthorId: parent.authorId, author: authorColumns })
    .from(schema.comments)
    .innerJoin(parent, eq(parent.id, schema.comments.parentId))
    .innerJoin(schema.users, eq(schema.users.id, schema.comments.authorId))
    .where(
      and(
        eq(schema.comments.manuscriptId, manuscriptId),
        isNotNull(schema.comments.parentId),
        isNull(schema.comments.deletedAt),
        isNull(parent.deletedAt),
      ),
    )
    .orderBy(
      asc(schema.comments.parentId),
      asc(schema.comments.createdAt),
      asc(schema.comments.id),
    );
  return rows.map((row) => ({
    reply: { ...row.reply, threadAuthorId: row.threadAuthorId },
    author: row.author,
  }));
}

/** The reactions on these comments and replies, in the fixed order of REACTIONS. */
export async function reactionsOf(db: Executor, commentIds: number[]): Promise<ReactionSet[]> {
  if (commentIds.length === 0) return [];
  const rows = await db
    .select({
      commentId: schema.commentReactions.commentId,
      reaction: schema.commentReactions.reaction,
      userId: schema.users.id,
      displayName: schema.users.displayName,
    })
    .from(schema.commentReactions)
    .innerJoin(schema.users, eq(schema.users.id, schema.commentReactions.userId))
    .where(inArray(schema.commentReactions.commentId, commentIds))
    .orderBy(asc(schema.commentReactions.createdAt), asc(schema.users.id));
  const byComment = new Map<number, Map<ReactionName, { id: number; display_name: string }[]>>();
  for (const row of rows) {
    if (!(REACTION_NAMES as string[]).includes(row.reaction)) continue;
    const sets = byComment.get(row.commentId) ?? new Map();
    byComment.set(row.commentId, sets);
    const users = sets.get(row.reaction as ReactionName) ?? [];
    sets.set(row.reaction as ReactionName, users);
    users.push({ id: row.userId, display_name: row.displayName });
  }
  return commentIds.flatMap((commentId) => {
    const sets = byComment.get(commentId);
    if (!sets) return [];
    return [
      {
        comment_id: commentId,
        reactions: REACTION_NAMES.filter((name) => sets.has(name)).map((name) => ({
          name,
          count: sets.get(name)!.length,
          users: sets.get(name)!,
        })),
      },
    ];
  });
}

/** The reaction set of one comment or reply (empty reactions when none). */
export async function reactionSetOf(db: Executor, commentId: number): Promise<ReactionSet> {
  const [set] = await reactionsOf(db, [commentId]);
  return set ?? { comment_id: commentId, reactions: [] };
}
