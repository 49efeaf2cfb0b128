import type { Invite, InviteUser } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { appLinks } from '../notifications/templates.ts';
import type { InviteDetails, InviteRow } from './queries.ts';

/** Kinds whose code is a link the author hands out (a request's or redemption's is not). */
const SHAREABLE: ReadonlySet<InviteRow['kind']> = new Set(['user', 'email', 'link']);

/** True when the viewer sent this invite (only they see the address an e-mail invite went to). */
const sentBy = (invite: InviteRow, viewer: Pick<UserRow, 'id'> | null): boolean =>
  viewer !== null &&
  invite.createdById === viewer.id &&
  (invite.kind === 'user' || invite.kind === 'email');

const GRANTED: ReadonlySet<InviteRow['status']> = new Set(['accepted', 'approved']);

/** An account's e-mail never leaves in an invite: the inviter sees only an address they typed. */
function presentInviteUser(user: UserRow): InviteUser {
  return { id: user.id, display_name: user.displayName, handle: user.handle, email: null };
}

/**
 * An invite as this viewer may see it: its author sees the link and code; the sender of an
 * e-mail invite sees the address they typed, and the account behind it (handle, name) only
 * once the invitee has accepted, so an address never turns into a handle; an invite by handle
 * shows the handle and display name, never the e-mail. The invitee sees neither address nor code.
 */
export function presentInvite(
  { invite, manuscript, author, user }: InviteDetails,
  viewer: Pick<UserRow, 'id'> | null,
  publicUrl: string,
): Invite {
  const isAuthor = viewer !== null && viewer.id === manuscript.userId;
  const showEmail = sentBy(invite, viewer) && invite.kind === 'email';
  const isInvitee = viewer !== null && user?.id === viewer.id;
  const showUser =
    user !== null && (invite.kind !== 'email' || isInvitee || GRANTED.has(invite.status));
  const shareable = isAuthor && SHAREABLE.has(invite.kind);
  return {
    id: invite.id,
    kind: invite.kind,
    invite_type: invite.inviteType,
    status: invite.status,
    link: shareable ? appLinks(publicUrl).share(invite.code) : null,
    user: user && showUser ? presentInviteUser(user) : null,
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
