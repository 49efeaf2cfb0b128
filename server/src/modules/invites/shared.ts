import { and, desc, eq } from 'drizzle-orm';
import { MESSAGES, type Invite } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import { readRefusal } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { canManageAccess } from './policy.ts';
import { linkBaseUrl } from '../../plugins/link-base.ts';
import { presentInvite } from './presenter.ts';
import { loadInviteDetails, type InviteRow } from './queries.ts';

/** An unguessable invite code: 144 random bits, URL-safe (24 characters). */
export const newInviteCode = () => randomToken(18);

/**
 * Puts a user's invite row for a manuscript in a new state: the one they had is reused (it keeps
 * its code), else a row is made. An invite by the author and a reader's request alike.
 */
export async function putUserInvite(
  tx: Executor,
  existing: InviteRow | null | undefined,
  invite: {
    manuscript: ManuscriptRow;
    userId: number;
    kind: 'user' | 'request';
    status: 'pending' | 'requested';
    createdById: number;
  },
): Promise<InviteRow> {
  const values = {
    kind: invite.kind,
    status: invite.status,
    inviteType: invite.manuscript.visibility,
    createdById: invite.createdById,
    respondedAt: null,
    viaInviteId: null,
    updatedAt: new Date(),
  };
  const [row] = existing
    ? await tx
        .update(schema.invites)
        .set(values)
        .where(eq(schema.invites.id, existing.id))
        .returning()
    : await tx
        .insert(schema.invites)
        .values({
          ...values,
          manuscriptId: invite.manuscript.id,
          invitedUserId: invite.userId,
          code: newInviteCode(),
        })
        .returning();
  return row!;
}

/**
 * The manuscript, when the user may hand out access to it: 404 (with `missing`) when it does
 * not exist for them or is archived, 403 when they may open it but it is not theirs.
 */
export async function authorizeManage(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  missing: string = MESSAGES.notFound,
): Promise<ManuscriptRow> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript || manuscript.archivedAt !== null) throw notFound(missing);
  if (canManageAccess(user, manuscript)) return manuscript;
  const access = await loadReaderAccess(ctx, user, manuscript);
  if (readRefusal(user, manuscript, access)) throw notFound(missing);
  throw forbidden();
}

/** Presents invites for one viewer (see presentInvite). */
export async function presentInvites(
  ctx: AppContext,
  rows: InviteRow[],
  viewer: Pick<UserRow, 'id'> | null,
): Promise<Invite[]> {
  const details = await loadInviteDetails(ctx.db, rows);
  // Share links are shown in the page: the address the browser used, unless PUBLIC_URL is set.
  const baseUrl = linkBaseUrl(ctx.config);
  return details.map((detail) => presentInvite(detail, viewer, baseUrl));
}

export async function presentOneInvite(
  ctx: AppContext,
  row: InviteRow,
  viewer: Pick<UserRow, 'id'> | null,
): Promise<Invite> {
  const [presented] = await presentInvites(ctx, [row], viewer);
  return presented!;
}

/** The users whose access rests on this row: its reader and those who came through it. */
export async function readersOf(db: Executor, invite: InviteRow): Promise<number[]> {
  const redeemers = await db
    .select({ userId: schema.invites.invitedUserId })
    .from(schema.invites)
    .where(eq(schema.invites.viaInviteId, invite.id));
  const ids = new Set<number>();
  if (invite.invitedUserId) ids.add(invite.invitedUserId);
  for (const { userId } of redeemers) if (userId) ids.add(userId);
  return [...ids];
}

/** The manuscript's standing (reusable) share link: by code when given, else the newest. */
export async function findReusableLink(
  db: Executor,
  manuscriptId: number,
  code: string | undefined,
): Promise<InviteRow | null> {
  const [row] = await db
    .select()
    .from(schema.invites)
    .where(
      and(
        eq(schema.invites.manuscriptId, manuscriptId),
        eq(schema.invites.kind, 'link'),
        eq(schema.invites.oneTime, false),
        code ? eq(schema.invites.code, code) : undefined,
      ),
    )
    .orderBy(desc(schema.invites.createdAt), desc(schema.invites.id))
    .limit(1);
  return row ?? null;
}
