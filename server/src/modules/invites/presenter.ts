import type { Invite, InviteUser } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { appLinks } from '../notifications/templates.ts';
import type { InviteDetails, InviteRow } from './queries.ts';

/** Kinds whose code is a link the author hands out (a request's or redemption's is not). */
const SHAREABLE: ReadonlySet<InviteRow['kind']> = new Set(['user', 'email', 'link']);

/** True when the viewer sent this invite (only they see the invitee's e-mail). */
export const sentBy = (invite: InviteRow, viewer: Pick<UserRow, 'id'> | null): boolean =>
  viewer !== null &&
  invite.createdById === viewer.id &&
  (invite.kind === 'user' || invite.kind === 'email');

function presentInviteUser(user: UserRow, showEmail: boolean): InviteUser {
  return {
    id: user.id,
    display_name: user.displayName,
    handle: user.handle,
    email: showEmail ? user.email : null,
  };
}

/**
 * An invite as this viewer may see it: its author sees the link and code, and the e-mail
 * address only on invites they sent; the invitee sees neither.
 */
export function presentInvite(
  { invite, manuscript, author, user }: InviteDetails,
  viewer: Pick<UserRow, 'id'> | null,
  publicUrl: string,
): Invite {
  const isAuthor = viewer !== null && viewer.id === manuscript.userId;
  const showEmail = sentBy(invite, viewer);
  const shareable = isAuthor && SHAREABLE.has(invite.kind);
  return {
    id: invite.id,
    kind: invite.kind,
    invite_type: invite.inviteType,
    status: invite.status,
    link: shareable ? appLinks(publicUrl).share(invite.code) : null,
    user: user ? presentInviteUser(user, showEmail) : null,
    email: showEmail ? invite.email : null,
    invite_code: shareable ? { code: invite.code, redeemed: invite.redeemedAt !== null } : null,
    one_time: invite.oneTime,
    redeemed_at: invite.redeemedAt?.toISOString() ?? null,
    manuscript: {
      id: manuscript.id,
      title: manuscript.title,
      author: { id: author.id, display_name: author.displayName, handle: author.handle },
    },
    created: invite.createdAt.toISOString(),
  };
}
