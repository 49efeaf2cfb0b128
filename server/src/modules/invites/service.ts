import { and, eq, isNull, sql } from 'drizzle-orm';
import { MESSAGES, type Invite, type InviteByUserBody } from '@margins/common';
import type { z } from 'zod';
import type { inviteByLinkBody } from '@margins/common';
import type { AppContext, EventTx, UserRow } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { badRequest, forbidden, HttpError, notFound, tooMany } from '../../lib/http-errors.ts';
import { RateLimiter } from '../../lib/rate-limit.ts';
import { canOpen } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { changeVisibility } from '../manuscripts/service.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { queueMail, queueNotification, wakeMailer } from '../notifications/service.ts';
import { invitedByEmailMail, invitedToDocumentMail } from '../notifications/templates.ts';
import { checkInviteRate, mayMailInvite, recordInviteMail } from './mail-limits.ts';
import { can } from './policy.ts';
import { findInvite, findReaderRow, type InviteRow } from './queries.ts';
import {
  authorizeManage,
  findReusableLink,
  newInviteCode,
  presentOneInvite,
  putUserInvite,
  readersOf,
} from './shared.ts';

type InviteByLinkValues = z.output<typeof inviteByLinkBody>;

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
export const ONE_TIME_PRIVATE_ONLY = 'One-time links are only for private manuscripts.';
/** Invites by e-mail address, per author and hour (with or without an account behind them alike). */
const EMAIL_INVITES_PER_HOUR = 30;
const emailInviteLimits = new WeakMap<AppContext, RateLimiter>();

function emailInviteLimit(ctx: AppContext): RateLimiter {
  let limiter = emailInviteLimits.get(ctx);
  if (!limiter) {
    limiter = new RateLimiter(ctx.db, 'email-invites', EMAIL_INVITES_PER_HOUR, 60 * 60_000);
    emailInviteLimits.set(ctx, limiter);
  }
  return limiter;
}

/** What the author typed: a handle (a leading @ dropped) or an e-mail address, in either box. */
function inviteTarget(body: InviteByUserBody): { handle: string } | { email: string } {
  const typed = body.username?.trim() ?? '';
  // "@handle" is a handle; "name@host" an address.
  const email = body.email?.trim() || (/^[^@]+@/.test(typed) ? typed : '');
  if (email) {
    if (!EMAIL.test(email)) {
      throw badRequest({ email: ['Enter a valid e-mail address.'] });
    }
    return { email: email.toLowerCase() };
  }
  const handle = typed.replace(/^@/, '');
  if (!handle)
    throw badRequest({ username: [MESSAGES.enterUserOrEmail] }, MESSAGES.enterUserOrEmail);
  return { handle };
}

async function findInvitee(
  ctx: AppContext,
  target: { handle: string } | { email: string },
): Promise<UserRow | null> {
  const [user] =
    'email' in target
      ? // Only a verified address is the account's: an unverified one gets an e-mail invite,
        // which whoever proves the inbox claims.
        await ctx.db
          .select()
          .from(schema.users)
          .where(
            sql`lower(${schema.users.email}) = ${target.email} and ${schema.users.emailVerifiedAt} is not null`,
          )
      : await ctx.db
          .select()
          .from(schema.users)
          .where(sql`lower(${schema.users.handle}) = lower(${target.handle})`);
  return user ?? null;
}

/**
 * Invites an account: a new pending invite (mailed), or approves a waiting request. Asked by
 * e-mail (`typedEmail`), the invite is an e-mail invite to that address, so the author's answer
 * and list show the address as typed, never the account behind it (see presentInvite).
 */
async function inviteAccount(
  ctx: AppContext,
  tx: EventTx,
  author: UserRow,
  manuscript: ManuscriptRow,
  invitee: UserRow,
  typedEmail?: string,
): Promise<InviteRow> {
  if (invitee.id === manuscript.userId) throw new HttpError(400, MESSAGES.inviteUnable);
  const existing = await findReaderRow(tx, manuscript.id, invitee.id);
  if (existing && ['pending', 'accepted', 'approved'].includes(existing.status)) {
    throw new HttpError(400, MESSAGES.inviteUnable);
  }
  if (existing?.status === 'requested') {
    // Inviting someone who asked for access answers their request.
    const [approved] = await tx
      .update(schema.invites)
      .set({ status: 'approved', respondedAt: new Date(), updatedAt: new Date() })
      .where(eq(schema.invites.id, existing.id))
      .returning();
    await ctx.events.emit(tx, {
      type: 'access.granted',
      actorId: author.id,
      payload: { manuscriptId: manuscript.id, userId: invitee.id, via: 'request' },
      rows: { reader: invitee, manuscript },
    });
    return approved!;
  }
  // Someone who declined may be invited again (it waits on their dashboard), but not mailed.
  const declined = existing?.status === 'rejected';
  let row = await putUserInvite(tx, existing, {
    manuscript,
    userId: invitee.id,
    kind: 'user',
    status: 'pending',
    createdById: author.id,
  });
  if (typedEmail) {
    const [addressed] = await tx
      .update(schema.invites)
      .set({ kind: 'email', email: typedEmail })
      .where(eq(schema.invites.id, row.id))
      .returning();
    row = addressed!;
  }
  const recipient = { userId: invitee.id };
  if (declined || !(await mayMailInvite(tx, manuscript.id, recipient))) return row;
  const mailed = await queueNotification(
    ctx,
    tx,
    invitee,
    'invited_to_document',
    invitedToDocumentMail(ctx.config.publicUrl, {
      to: invitee,
      author,
      title: manuscript.title,
      code: row.code,
    }),
  );
  if (mailed) await recordInviteMail(tx, manuscript.id, recipient);
  return row;
}

/** Invites an address with no (verified) account: the invite waits for whoever signs up with it. */
async function inviteEmail(
  ctx: AppContext,
  tx: Tx,
  author: UserRow,
  manuscript: ManuscriptRow,
  email: string,
): Promise<InviteRow> {
  const [open] = await tx
    .select({ id: schema.invites.id })
    .from(schema.invites)
    .where(
      and(
        eq(schema.invites.manuscriptId, manuscript.id),
        eq(schema.invites.kind, 'email'),
        eq(schema.invites.email, email),
        isNull(schema.invites.invitedUserId),
      ),
    );
  if (open) throw new HttpError(400, MESSAGES.inviteUnable);
  const [row] = await tx
    .insert(schema.invites)
    .values({
      manuscriptId: manuscript.id,
      kind: 'email',
      inviteType: manuscript.visibility,
      email,
      code: newInviteCode(),
      status: 'pending',
      createdById: author.id,
    })
    .returning();
  if (!(await mayMailInvite(tx, manuscript.id, { email }))) return row!;
  await queueMail(
    ctx,
    tx,
    invitedByEmailMail(ctx.config.publicUrl, {
      to: email,
      author,
      title: manuscript.title,
      code: row!.code,
    }),
  );
  await recordInviteMail(tx, manuscript.id, { email });
  return row!;
}

/**
 * POST /manuscript/{id}/invite/user (author): invites an account by handle or e-mail (mailed
 * when their preferences allow), or an address without an account (mailed a sign-up link; the
 * invite waits for them). 404 for an unknown handle; 400 when they already have access.
 * By e-mail, the answer is the same whether or not the address has an account (an invite to
 * the address as typed, under the same per-author limit), so it never turns an address into a
 * handle; by handle it shows the handle and display name, never the e-mail.
 */
export async function inviteByUserOrEmail(
  ctx: AppContext,
  author: UserRow,
  manuscriptId: number,
  body: InviteByUserBody,
): Promise<Invite> {
  const target = inviteTarget(body);
  const manuscript = await authorizeManage(ctx, author, manuscriptId);
  await checkInviteRate(ctx, author);
  const invitee = await findInvitee(ctx, target);
  if (!invitee && 'handle' in target) throw notFound(MESSAGES.inviteNoAccount);
  const typedEmail = 'email' in target ? target.email : undefined;
  if (typedEmail && !(await emailInviteLimit(ctx).hit(`email-invite:${author.id}`)))
    throw tooMany();
  const row = await ctx.events.transaction((tx) =>
    invitee
      ? inviteAccount(ctx, tx, author, manuscript, invitee, typedEmail)
      : inviteEmail(ctx, tx, author, manuscript, typedEmail!),
  );
  wakeMailer(ctx);
  return presentOneInvite(ctx, row, author);
}

/**
 * POST /manuscript/{id}/invite/link (author): sets the manuscript's invite type and answers a
 * share link for it: a new one-time link (private only), or the standing reusable link.
 */
export async function inviteByLink(
  ctx: AppContext,
  author: UserRow,
  manuscriptId: number,
  body: InviteByLinkValues,
): Promise<Invite> {
  if (body.useInvite && body.access !== 'private') {
    throw badRequest({ useInvite: [ONE_TIME_PRIVATE_ONLY] });
  }
  const manuscript = await authorizeManage(ctx, author, manuscriptId, MESSAGES.linkDocumentMissing);
  const row = await ctx.events.transaction(async (tx) => {
    await changeVisibility(ctx, author, manuscript, body.access, tx);
    const reusable = body.useInvite ? null : await findReusableLink(tx, manuscript.id, body.code);
    if (reusable) {
      const [updated] = await tx
        .update(schema.invites)
        .set({ inviteType: body.access, updatedAt: new Date() })
        .where(eq(schema.invites.id, reusable.id))
        .returning();
      return updated!;
    }
    const [created] = await tx
      .insert(schema.invites)
      .values({
        manuscriptId: manuscript.id,
        kind: 'link',
        inviteType: body.access,
        code: newInviteCode(),
        oneTime: body.useInvite,
        status: 'pending',
        createdById: author.id,
      })
      .returning();
    return created!;
  });
  return presentOneInvite(ctx, row, author);
}

/**
 * DELETE /manuscript/invite/{id} (author or sender): the invite, link, redemption or request
 * goes, and with it the access it gave (a link takes its redemptions along); those readers are
 * evicted from the manuscript's socket room.
 */
export async function deleteInvite(
  ctx: AppContext,
  user: UserRow,
  inviteId: number,
): Promise<void> {
  const invite = await findInvite(ctx.db, inviteId);
  const manuscript = invite ? await findManuscript(ctx.db, invite.manuscriptId) : null;
  if (!invite || !manuscript) throw notFound(MESSAGES.inviteMoved);
  if (!can(user, 'delete', invite, manuscript)) {
    const access = await loadReaderAccess(ctx, user, manuscript);
    const knowsIt = canOpen(user, manuscript, access) && manuscript.archivedAt === null;
    throw knowsIt ? forbidden() : notFound(MESSAGES.inviteMoved);
  }
  await ctx.events.transaction(async (tx) => {
    const readers = await readersOf(tx, invite);
    await tx.delete(schema.invites).where(eq(schema.invites.id, invite.id));
    await ctx.events.emit(tx, {
      type: 'access.revoked',
      actorId: user.id,
      payload: { manuscriptId: manuscript.id, userIds: readers },
    });
  });
}
