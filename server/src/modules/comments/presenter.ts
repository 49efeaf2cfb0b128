import {
  MESSAGES,
  type Comment,
  type CommentAuthor,
  type Highlight,
  type ListedComment,
} from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { schema } from '../../db/index.ts';
import { mediaUrl } from '../users/presenter.ts';
import type { ReaderAccess } from '../access/policy.ts';
import {
  canSeeCommentText,
  canSeeHighlightText,
  type CommentPolicyManuscript,
  type CommentPolicyUser,
} from './policy.ts';

// THE ONLY way a comment or a highlight leaves the server, over HTTP and over the socket.

export type CommentRow = typeof schema.comments.$inferSelect;
export type HighlightRow = typeof schema.highlights.$inferSelect;

/** Where a hidden highlight is: nothing (SPEC: others see only that the author keeps them private). */
const WITHHELD_PLACE = {
  startPath: [],
  endPath: [],
  startOffset: null,
  endOffset: null,
  block_id: null,
  start: null,
  end: null,
} as const satisfies Partial<Highlight>;

/** The part of a user shown beside a comment and in the strip of connected users. */
export type AuthorFields = Pick<UserRow, 'id' | 'displayName' | 'handle' | 'pictureMediaId'>;

export function presentAuthor(user: AuthorFields): CommentAuthor {
  return {
    id: user.id,
    display_name: user.displayName,
    handle: user.handle,
    picture: user.pictureMediaId ? mediaUrl(user.pictureMediaId) : null,
  };
}

/**
 * A comment as `viewer` may see it: with private comments on, only its writer and the
 * manuscript's owner get the text. `myVote` undefined leaves my_vote out (broadcasts).
 */
export function presentComment(
  row: CommentRow,
  author: AuthorFields,
  viewer: CommentPolicyUser,
  manuscript: CommentPolicyManuscript,
  myVote?: -1 | 0 | 1,
  /** The viewer's access: staff see a private comment's text while a report on it is open. */
  access?: ReaderAccess,
): Comment {
  return {
    ...presentListedComment(row, viewer, manuscript, myVote, access),
    author: presentAuthor(author),
  };
}

/** presentComment without the author: the list sends each author once, beside the comments. */
export function presentListedComment(
  row: CommentRow,
  viewer: CommentPolicyUser,
  manuscript: CommentPolicyManuscript,
  myVote?: -1 | 0 | 1,
  access?: ReaderAccess,
): ListedComment {
  const visible = canSeeCommentText(viewer, row, manuscript, access);
  return {
    id: row.id,
    manuscript_id: row.manuscriptId,
    author_id: row.authorId,
    comment: visible ? row.body : MESSAGES.privateComments,
    private: !visible,
    selection_id: row.selectionId,
    created: row.createdAt.toISOString(),
    // When an unseen comment was edited is itself something its text would tell.
    updated: (visible ? row.updatedAt : row.createdAt).toISOString(),
    rank: row.rank,
    ...(myVote !== undefined ? { my_vote: myVote } : {}),
    moderation_flag: row.moderationFlag,
    moderation_reason: row.moderationFlag ? row.moderationReason : null,
    resolved_at: row.resolvedAt ? row.resolvedAt.toISOString() : null,
  };
}

/**
 * A highlight as `viewer` may see it. When private comments hide it, neither its quote nor its
 * place: its offsets would give the quote back from the text anyone reading has.
 */
export function presentHighlight(
  row: HighlightRow,
  viewer: CommentPolicyUser,
  manuscript: CommentPolicyManuscript,
): Highlight {
  const visible = canSeeHighlightText(viewer, row, manuscript);
  return {
    selection_id: row.id,
    manuscript_id: row.manuscriptId,
    user_id: row.userId,
    version_id: row.versionId,
    ...(visible
      ? {
          startPath: row.startPath,
          endPath: row.endPath,
          startOffset: row.startOffset,
          endOffset: row.endOffset,
          block_id: row.blockId,
          start: row.textStart,
          end: row.textEnd,
        }
      : WITHHELD_PLACE),
    selectedText: visible ? row.selectedText : '',
    quote: visible
      ? { exact: row.quoteExact, prefix: row.quotePrefix, suffix: row.quoteSuffix }
      : { exact: '', prefix: '', suffix: '' },
    colour: row.colour,
    orphaned: row.orphaned,
    private: !visible,
    created: row.createdAt.toISOString(),
    updated: (visible ? row.updatedAt : row.createdAt).toISOString(),
  };
}
