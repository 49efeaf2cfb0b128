import { and, eq } from 'drizzle-orm';
import { INVITE_MAIL_INTERVAL_HOURS, INVITES_PER_USER_PER_HOUR, MESSAGES } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { tooMany } from '../../lib/http-errors.ts';
import { RateLimiter } from '../../lib/rate-limit.ts';

// Invites are the one way a user makes us mail someone else: each is limited so that no one
// can use us to fill another person's inbox.

/** Who an invite mail goes to: an account, or an address without one. */
type InviteRecipient = { userId: number } | { email: string };

const recipientKey = (recipient: InviteRecipient): string =>
  'userId' in recipient ? `user:${recipient.userId}` : `email:${recipient.email.toLowerCase()}`;

const inviteLimits = new WeakMap<AppContext, RateLimiter>();

/** Refuses (429) a user's invite beyond INVITES_PER_USER_PER_HOUR. */
export async function checkInviteRate(ctx: AppContext, inviter: UserRow): Promise<void> {
  let limiter = inviteLimits.get(ctx);
  if (!limiter) {
    limiter = new RateLimiter(ctx.db, 'invites', INVITES_PER_USER_PER_HOUR, 60 * 60_000);
    inviteLimits.set(ctx, limiter);
  }
  if (!(await limiter.hit(`invite:${inviter.id}`))) throw tooMany(MESSAGES.tooManyInvites);
}

/**
 * Whether an invite to this manuscript may be mailed to them now: not if they declined one,
 * nor if one was mailed in the last INVITE_MAIL_INTERVAL_HOURS. Locks their row, so that two
 * invites at once send one mail.
 */
export async function mayMailInvite(
  tx: Tx,
  manuscriptId: number,
  recipient: InviteRecipient,
): Promise<boolean> {
  const key = recipientKey(recipient);
  await tx
    .insert(schema.inviteMails)
    .values({ manuscriptId, recipient: key })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(schema.inviteMails)
    .where(
      and(eq(schema.inviteMails.manuscriptId, manuscriptId), eq(schema.inviteMails.recipient, key)),
    )
    .for('update');
  if (!row || row.declinedAt) return false;
  const since = Date.now() - INVITE_MAIL_INTERVAL_HOURS * 3_600_000;
  return !row.lastMailedAt || row.lastMailedAt.getTime() <= since;
}

/** Notes that an invite mail to them was queued now. */
export async function recordInviteMail(
  tx: Tx,
  manuscriptId: number,
  recipient: InviteRecipient,
): Promise<void> {
  await tx
    .update(schema.inviteMails)
    .set({ lastMailedAt: new Date() })
    .where(
      and(
        eq(schema.inviteMails.manuscriptId, manuscriptId),
        eq(schema.inviteMails.recipient, recipientKey(recipient)),
      ),
    );
}

/** Notes that a reader declined an invite to this manuscript: no invite mail to it again. */
export async function recordDecline(tx: Tx, manuscriptId: number, userId: number): Promise<void> {
  await tx
    .insert(schema.inviteMails)
    .values({ manuscriptId, recipient: recipientKey({ userId }), declinedAt: new Date() })
    .onConflictDoUpdate({
      target: [schema.inviteMails.manuscriptId, schema.inviteMails.recipient],
      set: { declinedAt: new Date() },
    });
}
