import { hash, verify } from '@node-rs/argon2';
import { and, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import {
  MESSAGES,
  type CompleteSignupBody,
  type LoginBody,
  type SignupBody,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, HttpError, tooMany } from '../../lib/http-errors.ts';
import { escapeHtml } from '../../lib/mail.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { claimEmailInvites } from '../invites/claim.ts';

const VERIFY_HOURS = 48;
/** A hash of a random password, so that a login for an unknown e-mail costs the same time. */
let dummyHash: Promise<string> | null = null;

export const hashPassword = (password: string) => hash(password, { algorithm: 2 });

/** A local path to return to, or the fallback: never another site. */
export function safeNext(next: string | undefined | null, fallback = '/dashboard'): string {
  // Browsers drop tabs and newlines inside a URL and read "\" as "/", so "/\t/evil.com"
  // would become "//evil.com": refuse control characters and backslashes anywhere.
  const unsafe = (char: string) => char === '\\' || char.charCodeAt(0) < 0x20 || char === '\x7f';
  if (!next || !next.startsWith('/') || [...next].some(unsafe)) return fallback;
  const base = 'http://margins.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return fallback;
  }
  return url.origin === base ? next : fallback;
}

/** Creates the account (unverified, sign-up incomplete) and mails the verification link. */
export async function signup(ctx: AppContext, body: SignupBody, ip: string): Promise<UserRow> {
  if (!ctx.limits.signupPerIp.hit(ip)) throw tooMany();
  const passwordHash = await hashPassword(body.password);
  const user = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.email, body.email));
    if (existing) throw badRequest({ email: [MESSAGES.emailTaken] }, MESSAGES.emailTaken);
    const [created] = await tx
      .insert(schema.users)
      .values({ email: body.email, passwordHash, displayName: body.display_name })
      .returning();
    return created!;
  });
  await sendVerification(ctx, user, body.next);
  return user;
}

/** Mails a fresh verification link (rate limited per account). */
export async function sendVerification(ctx: AppContext, user: UserRow, next?: string) {
  if (!ctx.limits.mailPerAccount.hit(`verify:${user.id}`)) throw tooMany();
  const token = randomToken();
  await ctx.db.insert(schema.emailVerifications).values({
    tokenHash: hashToken(token),
    userId: user.id,
    next: safeNext(next, '/auth/complete/signup'),
    expiresAt: new Date(Date.now() + VERIFY_HOURS * 3_600_000),
  });
  const link = `${ctx.config.publicUrl}/auth/verify?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Verify your e-mail for Margins',
    text: `Hello ${user.displayName},\n\nConfirm your e-mail address by opening this link:\n${link}\n\nThe link works for ${VERIFY_HOURS} hours. If you did not sign up, ignore this mail.\n`,
    html: `<p>Hello ${escapeHtml(user.displayName)},</p><p>Confirm your e-mail address for Margins:</p><p><a href="${escapeHtml(link)}">Verify my e-mail</a></p><p>The link works for ${VERIFY_HOURS} hours. If you did not sign up, ignore this mail.</p>`,
  });
}

/** Marks the e-mail verified; returns the user and where to go, or null for a bad link. */
export async function verifyEmail(
  ctx: AppContext,
  token: string,
): Promise<{ user: UserRow; next: string } | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.emailVerifications)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(schema.emailVerifications.tokenHash, hashToken(token)),
          isNull(schema.emailVerifications.usedAt),
          gt(schema.emailVerifications.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!row) return null;
    const [user] = await tx
      .update(schema.users)
      .set({ emailVerifiedAt: sql`coalesce(${schema.users.emailVerifiedAt}, now())` })
      .where(eq(schema.users.id, row.userId))
      .returning();
    // The inbox is proven: manuscript invites sent to this address wait for the account now.
    await claimEmailInvites(tx, user!);
    return { user: user!, next: row.next ?? '/auth/complete/signup' };
  });
}

/**
 * Where a new user goes once sign-up is complete: the page they signed up from (a share link,
 * say; kept with their verification mail), else the dashboard.
 */
export async function nextAfterSignup(ctx: AppContext, userId: number): Promise<string> {
  const [row] = await ctx.db
    .select({ next: schema.emailVerifications.next })
    .from(schema.emailVerifications)
    .where(
      and(
        eq(schema.emailVerifications.userId, userId),
        isNotNull(schema.emailVerifications.next),
        ne(schema.emailVerifications.next, '/auth/complete/signup'),
      ),
    )
    .orderBy(desc(schema.emailVerifications.createdAt))
    .limit(1);
  return row?.next ? safeNext(row.next) : '/dashboard';
}

/** Checks the password with per-IP and per-account limits; returns the user or throws. */
export async function login(ctx: AppContext, body: LoginBody, ip: string): Promise<UserRow> {
  if (!ctx.limits.loginPerIp.hit(ip)) throw tooMany();
  if (!ctx.limits.loginPerAccount.hit(body.email)) throw tooMany();
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, body.email));
  dummyHash ??= hashPassword(randomToken());
  const valid = await verify(user?.passwordHash ?? (await dummyHash), body.password).catch(
    () => false,
  );
  if (!user || !valid) throw new HttpError(401, MESSAGES.loginFailed);
  ctx.limits.loginPerAccount.reset(body.email);
  return user;
}

/** Chooses the handle and display name (and redeems a platform invite code when required). */
export async function completeSignup(
  ctx: AppContext,
  user: UserRow,
  body: CompleteSignupBody,
): Promise<UserRow> {
  return ctx.db
    .transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(
          sql`lower(${schema.users.handle}) = lower(${body.handle}) and ${schema.users.id} <> ${user.id}`,
        );
      if (taken) throw badRequest({ handle: [MESSAGES.handleTaken] });
      if (ctx.config.invitesEnabled && !user.signupCompletedAt) {
        if (!body.invite_code) throw badRequest({ invite_code: ['Enter your invite code.'] });
        const [redeemed] = await tx
          .update(schema.platformInviteCodes)
          .set({ redeemedById: user.id, redeemedAt: new Date() })
          .where(
            and(
              eq(schema.platformInviteCodes.code, body.invite_code),
              isNull(schema.platformInviteCodes.redeemedById),
            ),
          )
          .returning();
        if (!redeemed) {
          throw badRequest({ invite_code: ['That invite code is not valid or was already used.'] });
        }
      }
      const [updated] = await tx
        .update(schema.users)
        .set({
          handle: body.handle,
          displayName: body.display_name,
          signupCompletedAt: user.signupCompletedAt ?? new Date(),
          updatedAt: new Date(),
        })
        .where(eq(schema.users.id, user.id))
        .returning();
      return updated!;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.handleTaken);
      throw error;
    });
}
