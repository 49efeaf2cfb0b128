import { and, eq, isNull } from 'drizzle-orm';
import { MESSAGES, type Bookmark, type Invite } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { addBookmark, removeBookmark, type BookmarkRow } from '../bookmarks/queries.ts';
import { presentBookmarkRow } from '../bookmarks/service.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { GRANTING_STATUSES } from '../access/grants.ts';
import { recordDecline } from './mail-limits.ts';
import { can } from './policy.ts';
import { findInvite, findReaderRow, listPendingInvitesFor, type InviteRow } from './queries.ts';
import { presentInvites } from './shared.ts';

const isGranting = (status: InviteRow['status']) =>
  (GRANTING_STATUSES as readonly string[]).includes(status);

/**
 * Binds an open e-mail invite to this user. When they already have a row for the manuscript
 * (an invite, request, redemption) the e-mail invite merges into it: that row is returned.
 */
async function claim(tx: Tx, invite: InviteRow, user: UserRow): Promise<InviteRow> {
  if (invite.invitedUserId !== null) return invite;
  const existing = await findReaderRow(tx, invite.manuscriptId, user.id);
  if (existing) {
    await tx.delete(schema.invites).where(eq(schema.invites.id, invite.id));
    return existing;
  }
  const [claimed] = await tx
    .update(schema.invites)
    .set({ invitedUserId: user.id, updatedAt: new Date() })
    .where(and(eq(schema.invites.id, invite.id), isNull(schema.invites.invitedUserId)))
    .returning();
  return claimed ?? invite;
}

/** Sets the reader's row accepted (a granting row stays as it is). */
export async function acceptRow(tx: Tx, row: InviteRow): Promise<InviteRow> {
  if (isGranting(row.status)) return row;
  const [accepted] = await tx
    .update(schema.invites)
    .set({ status: 'accepted', respondedAt: new Date(), updatedAt: new Date() })
    .where(eq(schema.invites.id, row.id))
    .returning();
  return accepted!;
}

/** The invite and its live manuscript, when addressed to the user: 404 gone, 403 not theirs. */
async function findOwnInvite(
  ctx: AppContext,
  user: UserRow,
  inviteId: number,
  refusal: string,
): Promise<{ invite: InviteRow; manuscript: ManuscriptRow }> {
  const invite = await findInvite(ctx.db, inviteId);
  const manuscript = invite ? await findManuscript(ctx.db, invite.manuscriptId) : null;
  if (!invite || !manuscript || manuscript.archivedAt !== null)
    throw notFound(MESSAGES.inviteMoved);
  if (!can(user, 'respond', invite, manuscript)) throw forbidden(refusal);
  return { invite, manuscript };
}

/** Accepts an invite addressed to the user (claiming an e-mail invite) and adds it to their reads. */
export async function acceptInviteFor(
  tx: Tx,
  invite: InviteRow,
  user: UserRow,
): Promise<{ row: InviteRow; bookmark: BookmarkRow }> {
  const row = await acceptRow(tx, await claim(tx, invite, user));
  return { row, bookmark: await addBookmark(tx, user.id, invite.manuscriptId) };
}

/** POST /invite/{id}/accept: the invitee accepts; answers their new read. */
export async function acceptInvite(
  ctx: AppContext,
  user: UserRow,
  inviteId: number,
): Promise<Bookmark> {
  const { invite, manuscript } = await findOwnInvite(ctx, user, inviteId, MESSAGES.acceptForbidden);
  const { bookmark } = await ctx.db.transaction((tx) => acceptInviteFor(tx, invite, user));
  return presentBookmarkRow(ctx, bookmark, manuscript);
}

/** DELETE /invite/{id}: the invitee declines (or leaves); their read goes too. */
export async function rejectInvite(
  ctx: AppContext,
  user: UserRow,
  inviteId: number,
): Promise<void> {
  const { invite, manuscript } = await findOwnInvite(ctx, user, inviteId, MESSAGES.forbidden);
  await ctx.events.transaction(async (tx) => {
    const row = await claim(tx, invite, user);
    await tx
      .update(schema.invites)
      .set({ status: 'rejected', respondedAt: new Date(), updatedAt: new Date() })
      .where(eq(schema.invites.id, row.id));
    await recordDecline(tx, manuscript.id, user.id);
    await removeBookmark(tx, user.id, manuscript.id);
    await ctx.events.emit(tx, {
      type: 'access.revoked',
      actorId: user.id,
      payload: { manuscriptId: manuscript.id, userIds: [user.id] },
    });
  });
}

/** GET /user/current/invites: the user's pending invites, newest first. */
export async function pendingInvites(
  ctx: AppContext,
  user: UserRow,
  manuscriptId?: number,
): Promise<Invite[]> {
  return presentInvites(ctx, await listPendingInvitesFor(ctx.db, user, manuscriptId), user);
}
