import type { Reply } from '@margins/common';
import {
  canSeeCommentText,
  type CommentPolicyManuscript,
  type CommentPolicyUser,
} from './policy.ts';
import { presentAuthor, type AuthorFields } from './presenter.ts';
import type { ReplyOutcome } from './reply-service.ts';
import type { ThreadComment } from './thread-queries.ts';

/**
 * A reply as `viewer` may see it, or null: with private comments on, a reply reaches only the
 * writer of the comment it answers, its own writer and the manuscript's owner — nobody else
 * learns it exists. `myVote` undefined leaves my_vote out (broadcasts).
 */
export function presentReply(
  row: ThreadComment,
  author: AuthorFields,
  viewer: CommentPolicyUser,
  manuscript: CommentPolicyManuscript,
  myVote?: -1 | 0 | 1,
): Reply | null {
  if (row.parentId === null || row.deletedAt !== null) return null;
  if (!canSeeCommentText(viewer, row, manuscript)) return null;
  return {
    id: row.id,
    comment_id: row.parentId,
    manuscript_id: row.manuscriptId,
    author_id: row.authorId,
    author: presentAuthor(author),
    comment: row.body,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
    rank: row.rank,
    ...(myVote !== undefined ? { my_vote: myVote } : {}),
    moderation_flag: row.moderationFlag,
    moderation_reason: row.moderationFlag ? row.moderationReason : null,
  };
}

/** A reply write's answer, for the one who wrote it (who always may see it): HTTP and socket. */
export function presentReplyOutcome(outcome: ReplyOutcome): Reply {
  const { scope, reply, author, myVote } = outcome;
  return presentReply(reply, author, scope.viewer, scope.manuscript, myVote)!;
}
