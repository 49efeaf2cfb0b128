import { isArchived, isOwner, type ReaderAccess } from '../access/policy.ts';
import {
  can,
  type CommentPolicyManuscript,
  type CommentPolicyUser,
  type PolicyComment,
} from './policy.ts';

/**
 * reply: answer a comment; update_reply/delete_reply: one reply; resolve: resolve or reopen a
 * comment's thread; react: add or remove a reaction on a comment or a reply.
 */
export const THREAD_ACTIONS = [
  'reply',
  'update_reply',
  'delete_reply',
  'resolve',
  'react',
] as const;
export type ThreadAction = (typeof THREAD_ACTIONS)[number];

/** A comment or reply as the thread policy needs it. */
type ThreadPolicyComment = PolicyComment & { parentId: number | null };

/**
 * The thread rules on top of the comment policy (issue 16): whoever may see a comment's text
 * may reply to it and react to it; a reply is edited by its writer and deleted by its writer or
 * the owner; only the owner resolves. Replies go one level deep.
 */
export function canThread(
  user: CommentPolicyUser,
  action: ThreadAction,
  comment: ThreadPolicyComment,
  manuscript: CommentPolicyManuscript,
  access: ReaderAccess,
): boolean {
  const isReply = comment.parentId !== null;
  switch (action) {
    case 'reply':
      return (
        !isReply &&
        can(user, 'create', null, manuscript, access) &&
        can(user, 'read_text', comment, manuscript, access)
      );
    case 'react':
      return (
        can(user, 'create', null, manuscript, access) &&
        can(user, 'read_text', comment, manuscript, access)
      );
    case 'update_reply':
      return isReply && can(user, 'update', comment, manuscript, access);
    case 'delete_reply':
      return isReply && can(user, 'delete', comment, manuscript, access);
    case 'resolve':
      return (
        !isReply &&
        comment.deletedAt === null &&
        user !== null &&
        isOwner(user, manuscript) &&
        !isArchived(manuscript) &&
        can(user, 'list', null, manuscript, access)
      );
  }
}
