import { and, eq, isNull } from 'drizzle-orm';
import type { Invite, ShareState, SharePageData } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { addBookmark } from '../bookmarks/queries.ts';
import { canOpen, isOwner } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { queueNotification, wakeMailer } from '../notifications/service.ts';
import { readerNeedsApprovalMail } from '../notifications/templates.ts';
import { GRANTING_STATUSES } from '../access/grants.ts';
import { findInvite, findInviteByCode, findReaderRow, type InviteRow } from './queries.ts';
import { acceptInviteFor, acceptRow } from './respond.ts';
import { authorizeManage, newInviteCode, presentOneInvite, putUserInvite } from './shared.ts';

/** What the landing page says in each state. */
export const SHARE_MESSAGES: Record<ShareState, string> = {
  accept: 'You are invited to read this manuscript. Accept to add it to your reads.',
  invalid: "This link doesn't work. It may have been deleted, or the manuscript archived.",
  used: 'This one-time link has already been used. Ask the author for a new one.',
  not_yours:
    'This invite was sent to someone else. Log in with the account it was sent to, or ask the author to invite you.',
  unavailable: 'This invite is no longer available. Ask the author for a new one.',
  request_access: 'This manuscript is restricted: ask the author for access.',
  request_pending: 'You asked for access. The author has not answered yet.',
  request_refused: 'The author declined your request for access.',
};
const ALREADY_HAS_ACCESS = 'You can already read this manuscript.';

const HTTP_STATUS: Record<ShareState, 200 | 403 | 404> = {
  accept: 200,
  invalid: 404,
  used: 403,
  not_yours: 403,
  unavailable: 404,
  request_access: 200,
  request_pending: 200,
  request_refused: 200,
};

/** Where GET /share/{code} sends the visitor, or the landing page it shows instead. */
type ShareOutcome = { redirect: string } | { status: 200 | 403 | 404; data: SharePageData };

export const readerPath = (manuscriptId: number) => `/manuscript/document/reader/${manuscriptId}`;

function landing(
  state: ShareState,
  code: string,
  manuscript: ManuscriptRow | null = null,
  author: UserRow | null = null,
): ShareOutcome {
  return {
    status: HTTP_STATUS[state],
    data: {
      state,
      code,
      message: SHARE_MESSAGES[state],
      manuscript:
        manuscript && author
          ? {
              id: manuscript.id,
              title: manuscript.title,
              summary: manuscript.summary,
              author: { id: author.id, display_name: author.displayName, handle: author.handle },
            }
          : null,
    },
  };
}

async function authorOf(ctx: AppContext, manuscript: ManuscriptRow): Promise<UserRow> {
  const [author] = await ctx.db
    .select()
    .from(schema.users)
    .where(eq(schema.users.id, manuscript.userId));
  return author!;
}

/** Restricted: the visitor's request state, shown with the manuscript's title and author. */
async function requestLanding(
  ctx: AppContext,
  viewer: UserRow,
  code: string,
  manuscript: ManuscriptRow,
): Promise<ShareOutcome> {
  const row = await findReaderRow(ctx.db, manuscript.id, viewer.id);
  const state: ShareState =
    row?.status === 'requested'
      ? 'request_pending'
      : row?.status === 'refused'
        ? 'request_refused'
        : 'request_access';
  return landing(state, code, manuscript, await authorOf(ctx, manuscript));
}

/**
 * Redeems a private share link: a one-time link only once, by its first user (atomically; a
 * redeemer whose access was removed cannot come back through it), a reusable one for anyone
 * who has it. The reader's access row is created (or accepted) and the
 * manuscript added to their reads.
 */
async function redeemLink(
  ctx: AppContext,
  viewer: UserRow,
  link: InviteRow,
): Promise<'redeemed' | 'used'> {
  return ctx.db.transaction(async (tx) => {
    if (link.oneTime) {
      const [taken] = await tx
        .update(schema.invites)
        .set({ redeemedAt: new Date(), redeemedById: viewer.id, updatedAt: new Date() })
        .where(and(eq(schema.invites.id, link.id), isNull(schema.invites.redeemedAt)))
        .returning({ id: schema.invites.id });
      // Used already: by someone else, or by this visitor whose access was removed since.
      if (!taken) return 'used';
    }
    const existing = await findReaderRow(tx, link.manuscriptId, viewer.id);
    if (existing) {
      await acceptRow(tx, existing);
    } else {
      await tx.insert(schema.invites).values({
        manuscriptId: link.manuscriptId,
        kind: 'redemption',
        inviteType: link.inviteType,
        invitedUserId: viewer.id,
        code: newInviteCode(),
        viaInviteId: link.id,
        status: 'accepted',
        createdById: viewer.id,
        respondedAt: new Date(),
      });
    }
    await addBookmark(tx, viewer.id, link.manuscriptId);
    return 'redeemed';
  });
}

/**
 * GET /share/{code}: a logged-out visitor logs in (or signs up) and comes back, unless anyone
 * may read; a visitor who may read already goes to the reader; an invite addressed to the
 * visitor, or a private link, shows the manuscript with an Accept button (POST
 * /share/{code}/accept): a GET changes nothing, so a link from another site cannot add a
 * manuscript to someone's reads. A restricted manuscript offers an access request.
 */
export function openShareLink(
  ctx: AppContext,
  viewer: UserRow | null,
  code: string,
): Promise<ShareOutcome> {
  return followShareLink(ctx, viewer, code, false);
}

/**
 * POST /share/{code}/accept: what the landing's Accept button does: the invite addressed to
 * the visitor is accepted, or the private link redeemed (a one-time link only by its first
 * user); then to the reader.
 */
export function acceptShareLink(
  ctx: AppContext,
  viewer: UserRow,
  code: string,
): Promise<ShareOutcome> {
  return followShareLink(ctx, viewer, code, true);
}

async function followShareLink(
  ctx: AppContext,
  viewer: UserRow | null,
  code: string,
  accept: boolean,
): Promise<ShareOutcome> {
  const invite = await findInviteByCode(ctx.db, code);
  if (!invite || invite.kind === 'request' || invite.kind === 'redemption') {
    return landing('invalid', code);
  }
  const manuscript = await findManuscript(ctx.db, invite.manuscriptId);
  if (!manuscript || manuscript.archivedAt !== null) return landing('invalid', code);
  const toReader = { redirect: readerPath(manuscript.id) };
  if (!viewer) {
    if (canOpen(null, manuscript)) return toReader;
    return { redirect: `/auth/login?next=${encodeURIComponent(`/share/${code}`)}` };
  }
  // Staff follow a link as the members they are: the access rule lets them in only while a
  // report is open (loadReaderAccess), so a shortcut here would send them to a reader that 404s.
  if (isOwner(viewer, manuscript)) return toReader;
  const offer = async () => landing('accept', code, manuscript, await authorOf(ctx, manuscript));

  if (invite.kind === 'user' || invite.kind === 'email') {
    const addressed =
      invite.invitedUserId === viewer.id ||
      // The mailed code is the proof for an e-mail invite no account has claimed yet.
      (invite.kind === 'email' && invite.invitedUserId === null);
    if (!addressed) return landing('not_yours', code);
    if (!accept) {
      const access = await loadReaderAccess(ctx, viewer, manuscript);
      return canOpen(viewer, manuscript, access) && invite.status !== 'pending'
        ? toReader
        : offer();
    }
    await ctx.db.transaction((tx) => acceptInviteFor(tx, invite, viewer));
    return toReader;
  }

  // A share link: what it does follows the manuscript's invite type now.
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  if (canOpen(viewer, manuscript, access)) return toReader;
  if (manuscript.visibility === 'restricted') return requestLanding(ctx, viewer, code, manuscript);
  // Private: only a link made for private access lets anyone in.
  if (invite.inviteType !== 'private') return landing('unavailable', code);
  if (!accept)
    return invite.oneTime && invite.redeemedAt !== null ? landing('used', code) : offer();
  const redeemed = await redeemLink(ctx, viewer, invite);
  return redeemed === 'used' ? landing('used', code) : toReader;
}

/**
 * POST /share/{code}/request: asks the author of a restricted manuscript for access (a pending
 * invite to the visitor is simply accepted). Mails the author (reader_needs_approval).
 */
export async function requestAccess(
  ctx: AppContext,
  viewer: UserRow,
  code: string,
): Promise<Invite> {
  const link = await findInviteByCode(ctx.db, code);
  const manuscript = link?.kind === 'link' ? await findManuscript(ctx.db, link.manuscriptId) : null;
  if (!link || !manuscript || manuscript.archivedAt !== null)
    throw notFound(SHARE_MESSAGES.invalid);
  if (manuscript.visibility !== 'restricted') throw notFound(SHARE_MESSAGES.unavailable);
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  if (canOpen(viewer, manuscript, access)) throw new HttpError(400, ALREADY_HAS_ACCESS);
  const existing = await findReaderRow(ctx.db, manuscript.id, viewer.id);
  if (existing?.status === 'refused') throw new HttpError(403, SHARE_MESSAGES.request_refused);
  if (existing?.status === 'requested') return presentOneInvite(ctx, existing, viewer);
  const author = await authorOf(ctx, manuscript);
  const row = await ctx.db.transaction(async (tx) => {
    if (existing?.status === 'pending') return acceptRow(tx, existing);
    const request = await putUserInvite(tx, existing, {
      manuscript,
      userId: viewer.id,
      kind: 'request',
      status: 'requested',
      createdById: viewer.id,
    });
    await queueNotification(
      ctx,
      tx,
      author,
      'reader_needs_approval',
      readerNeedsApprovalMail(ctx.config.publicUrl, {
        to: author,
        reader: viewer,
        title: manuscript.title,
        manuscriptId: manuscript.id,
        reason: 'request',
      }),
    );
    return request;
  });
  wakeMailer(ctx);
  return presentOneInvite(ctx, row, viewer);
}

/**
 * POST /manuscript/{id}/access/{request_id}/approve|refuse (author): approving lets the reader
 * in (added to their reads, mailed received_approval); refusing an approved reader evicts them.
 */
export async function decideRequest(
  ctx: AppContext,
  author: UserRow,
  manuscriptId: number,
  requestId: number,
  decision: 'approve' | 'refuse',
): Promise<Invite> {
  const manuscript = await authorizeManage(ctx, author, manuscriptId);
  const request = await findInvite(ctx.db, requestId);
  if (!request || request.manuscriptId !== manuscript.id || request.kind !== 'request') {
    throw notFound('No such request.');
  }
  const wasGranting = (GRANTING_STATUSES as readonly string[]).includes(request.status);
  const row = await ctx.events.transaction(async (tx) => {
    const [decided] = await tx
      .update(schema.invites)
      .set({
        status: decision === 'approve' ? 'approved' : 'refused',
        respondedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(schema.invites.id, request.id))
      .returning();
    if (decision === 'approve' && !wasGranting && request.invitedUserId) {
      await addBookmark(tx, request.invitedUserId, manuscript.id);
      const [reader] = await tx
        .select()
        .from(schema.users)
        .where(eq(schema.users.id, request.invitedUserId));
      await ctx.events.emit(tx, {
        type: 'access.granted',
        actorId: author.id,
        payload: { manuscriptId: manuscript.id, userId: reader!.id, via: 'request' },
        rows: { reader: reader!, manuscript },
      });
    }
    if (decision === 'refuse' && wasGranting && request.invitedUserId) {
      await ctx.events.emit(tx, {
        type: 'access.revoked',
        actorId: author.id,
        payload: { manuscriptId: manuscript.id, userIds: [request.invitedUserId] },
      });
    }
    return decided!;
  });
  return presentOneInvite(ctx, row, author);
}
