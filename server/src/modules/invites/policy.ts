import type { UserRow } from '../../context.ts';
import { isOwner, type PolicyManuscript, type PolicyUser } from '../access/policy.ts';
import { canEdit } from '../manuscripts/policy.ts';
import type { InviteRow } from './queries.ts';

/**
 * invite: invite a user or e-mail, make a share link, list invites, decide requests;
 * delete: remove an invite, link, redemption or request (access removed);
 * respond: accept or reject an invite addressed to you.
 */
type InviteAction = 'invite' | 'delete' | 'respond';

/** Kinds an author sends (a request is the reader's, a redemption the link's). */
const SENT_KINDS: ReadonlySet<InviteRow['kind']> = new Set(['user', 'email', 'link']);

/** Only the author hands out (and withdraws) access to a live manuscript. */
export function canManageAccess(user: PolicyUser, manuscript: PolicyManuscript): boolean {
  return canEdit(user, manuscript);
}

/**
 * Is this invite addressed to the user: invited by account, or an e-mail invite to their
 * verified address that no account has claimed yet?
 */
function isInvitee(
  user: Pick<UserRow, 'id' | 'email' | 'emailVerifiedAt'> | null,
  invite: Pick<InviteRow, 'kind' | 'invitedUserId' | 'email'>,
): boolean {
  if (!user || (invite.kind !== 'user' && invite.kind !== 'email')) return false;
  if (invite.invitedUserId !== null) return invite.invitedUserId === user.id;
  return (
    invite.kind === 'email' &&
    user.emailVerifiedAt !== null &&
    invite.email === user.email.toLowerCase()
  );
}

/** One entry point: can(user, 'delete', invite, manuscript). */
export function can(
  user: (NonNullable<PolicyUser> & Pick<UserRow, 'email' | 'emailVerifiedAt'>) | null,
  action: InviteAction,
  invite: Pick<InviteRow, 'kind' | 'invitedUserId' | 'email' | 'createdById'> | null,
  manuscript: PolicyManuscript,
): boolean {
  switch (action) {
    case 'invite':
      return canManageAccess(user, manuscript);
    case 'delete':
      // The author, or whoever sent it (today only authors send invites).
      if (user === null || invite === null || manuscript.archivedAt !== null) return false;
      return (
        isOwner(user, manuscript) || (invite.createdById === user.id && SENT_KINDS.has(invite.kind))
      );
    case 'respond':
      return invite !== null && manuscript.archivedAt === null && isInvitee(user, invite);
  }
}
