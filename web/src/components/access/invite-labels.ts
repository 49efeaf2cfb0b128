import type { Invite, InviteStatus } from '@margins/common';

/** How an invite's state reads to its author. */
export const STATUS_LABELS: Record<InviteStatus, string> = {
  pending: 'Invited',
  accepted: 'Reading',
  rejected: 'Declined',
  requested: 'Asked for access',
  approved: 'Approved',
  refused: 'Refused',
};

/** Tone of a status badge. */
export function statusTone(status: InviteStatus): 'good' | 'wait' | 'off' {
  if (status === 'accepted' || status === 'approved') return 'good';
  if (status === 'pending' || status === 'requested') return 'wait';
  return 'off';
}

/** The person an invite is about, as a line: "Name (@handle)", the address, or null. */
export function inviteePrimary(invite: Invite): string | null {
  if (invite.user) return invite.user.display_name;
  return invite.email;
}

/**
 * The second line of a person: the handle, and the address when the author invited by e-mail.
 * Before an e-mail invite is accepted the server does not say whose account the address is
 * (nor whether there is one), so neither does this line.
 */
export function inviteeSecondary(invite: Invite): string | null {
  if (!invite.user) return invite.email ? 'Invited by e-mail' : null;
  const parts = [invite.user.handle ? `@${invite.user.handle}` : null, invite.email];
  return parts.filter(Boolean).join(' · ') || null;
}
