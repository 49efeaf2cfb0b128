import type { schema } from '../../db/index.ts';
import {
  canRead,
  isArchived,
  isOwner,
  isStaff,
  NO_READER_ACCESS,
  type PolicyManuscript,
  type PolicyUser,
  type ReaderAccess,
} from '../access/policy.ts';

type CommentRow = typeof schema.comments.$inferSelect;
type HighlightRow = typeof schema.highlights.$inferSelect;
type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

/** The viewer as the comment policy needs them; null when logged out. */
export type CommentPolicyUser = PolicyUser;
/** The manuscript as the comment policy needs it (reading rules + comment settings). */
export type CommentPolicyManuscript = PolicyManuscript & Pick<ManuscriptRow, 'privateComments'>;
export type PolicyComment = Pick<CommentRow, 'authorId' | 'deletedAt'> & ThreadOf;
/** For a reply: the writer of the comment it answers, who also sees it (issue 16). */
type ThreadOf = { threadAuthorId?: number | null };

/**
 * list: see a manuscript's comments and highlights; create: highlight or comment; read_text:
 * see a comment's text; update/delete/rank/report: one comment.
 */
export const COMMENT_ACTIONS = [
  'list',
  'create',
  'read_text',
  'update',
  'delete',
  'rank',
  'report',
] as const;
export type CommentAction = (typeof COMMENT_ACTIONS)[number];

/**
 * With private comments on, only a comment's writer and the manuscript's owner see its text —
 * and staff, while a report on that comment is open (`access.reportedComments`; each such
 * reading is audited: staffCommentReveals).
 */
export function canSeeCommentText(
  user: CommentPolicyUser,
  comment: Pick<CommentRow, 'authorId'> & ThreadOf & { id?: number },
  manuscript: CommentPolicyManuscript,
  access?: ReaderAccess,
): boolean {
  if (!manuscript.privateComments) return true;
  if (user === null) return false;
  return (
    user.id === comment.authorId ||
    user.id === comment.threadAuthorId ||
    isOwner(user, manuscript) ||
    revealedByReport(user, comment, access)
  );
}

/** Staff, and a report on this comment is open. */
export function revealedByReport(
  user: CommentPolicyUser,
  comment: { id?: number },
  access: ReaderAccess | undefined,
): boolean {
  return (
    isStaff(user) &&
    comment.id !== undefined &&
    (access?.reportedComments?.has(comment.id) ?? false)
  );
}

/** The same rule for a highlight's quote: its highlighter and the owner. */
export function canSeeHighlightText(
  user: CommentPolicyUser,
  highlight: Pick<HighlightRow, 'userId'>,
  manuscript: CommentPolicyManuscript,
): boolean {
  if (!manuscript.privateComments) return true;
  return user !== null && (user.id === highlight.userId || isOwner(user, manuscript));
}

/**
 * One entry point for every comment action: can(user, 'update', comment, manuscript, access).
 * Reading is the manuscripts policy's canRead (never re-implemented here: it holds the invites,
 * the 18+ and questionnaire gates); `comment` is null for
 * the manuscript-wide actions (list, create).
 */
export function can(
  user: CommentPolicyUser,
  action: CommentAction,
  comment: PolicyComment | null,
  manuscript: CommentPolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  if (!canRead(user, manuscript, access)) return false;
  if (action === 'list') return true;
  if (action === 'read_text') {
    return (
      comment !== null &&
      comment.deletedAt === null &&
      canSeeCommentText(user, comment, manuscript, access)
    );
  }
  if (user === null || isArchived(manuscript)) return false;
  if (action === 'create') return true;
  if (comment === null || comment.deletedAt !== null) return false;
  const isWriter = comment.authorId === user.id;
  switch (action) {
    case 'update':
      return isWriter;
    case 'delete':
      return isWriter || isOwner(user, manuscript);
    case 'rank':
    case 'report':
      return !isWriter && canSeeCommentText(user, comment, manuscript);
  }
}
