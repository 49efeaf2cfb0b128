import { and, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import {
  MESSAGES,
  MODERATION_MESSAGES,
  type CompleteSignupBody,
  type LoginBody,
  type SignupBody,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { readFeatures } from '../features/service.ts';
import { badRequest, conflict, forbidden, HttpError, tooMany } from '../../lib/http-errors.ts';
import { escapeHtml } from '../../lib/mail.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { claimEmailInvites } from '../invites/claim.ts';
import { assertPasswordAllowed } from './password-rules.ts';

export const VERIFY_HOURS = 48;
/** A hash of a random password, so that a login for an unknown e-mail costs the same time. */
let dummyHash: Promise<string> | null = null;

/** argon2 (a native module, ~40 ms to load): loaded on the first sign-up or sign-in, not at start. */
const argon2 = () => import('@node-rs/argon2');

export const hashPassword = async (password: string) =>
  (await argon2()).hash(password, { algorithm: 2 });

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

/** The sign-up browser's mark for a verification token (kept in SIGNUP_COOKIE). */
export const browserMark = (token: string) => hashToken(`signup-browser:${token}`);

/**
 * Sign-up. The answer is the same whether or not the address has an account (the route
 * answers "Check your inbox…" either way), and so is the work (one argon2 hash):
 * - a new address gets an unverified account and a verification link;
 * - an address whose account was never verified is taken over by this newest sign-up (its
 *   password and name replaced, its sessions and old links dropped: whoever set it up before
 *   never proved the inbox) and is mailed a fresh link;
 * - a verified account's owner is mailed a note instead ("someone tried to sign up…").
 * Mails to one address are limited per hour; past that nothing is sent, and the answer is still
 * the same. Returns the mark of this browser (for SIGNUP_COOKIE): only the browser holding it is
 * logged in by the verification link.
 */
export async function signup(
  ctx: AppContext,
  body: SignupBody,
  ip: string,
): Promise<{ browserToken: string }> {
  if (!(await ctx.limits.signupPerIp.hit(ip))) throw tooMany();
  assertPasswordAllowed(body.password, { email: body.email });
  const passwordHash = await hashPassword(body.password);
  const mayMail = await ctx.limits.mailPerAccount.hit(`signup:${body.email}`);
  const { user, isNew } = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, body.email));
    if (existing?.emailVerifiedAt) return { user: existing, isNew: false };
    if (existing) {
      await tx.delete(schema.sessions).where(eq(schema.sessions.userId, existing.id));
      await tx
        .delete(schema.emailVerifications)
        .where(eq(schema.emailVerifications.userId, existing.id));
      const [renewed] = await tx
        .update(schema.users)
        .set({ passwordHash, displayName: body.display_name, updatedAt: new Date() })
        .where(eq(schema.users.id, existing.id))
        .returning();
      return { user: renewed!, isNew: true };
    }
    const [created] = await tx
      .insert(schema.users)
      .values({ email: body.email, passwordHash, displayName: body.display_name })
      .returning();
    return { user: created!, isNew: true };
  });
  if (!isNew) {
    if (mayMail) await mailSignupAttempt(ctx, user);
    return { browserToken: randomToken() };
  }
  if (!mayMail) return { browserToken: randomToken() };
  return { browserToken: await sendVerification(ctx, user, body.next) };
}

/** Tells a verified account's owner that someone tried to sign up with their address. */
async function mailSignupAttempt(ctx: AppContext, user: UserRow): Promise<void> {
  const login = `${ctx.config.publicUrl}/auth/login`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Someone tried to sign up to Margins with your address',
    text: `Hello ${user.displayName},\n\nSomeone (maybe you) tried to sign up to Margins with this e-mail address. You already have an account: log in here:\n${login}\n\nIf you forgot your password, write to us through the contact page. If it was not you, ignore this mail: nobody got into your account.\n`,
    html: `<p>Hello ${escapeHtml(user.displayName)},</p><p>Someone (maybe you) tried to sign up to Margins with this e-mail address. You already have an account:</p><p><a href="${escapeHtml(login)}">Log in to Margins</a></p><p>If you forgot your password, write to us through the contact page. If it was not you, ignore this mail: nobody got into your account.</p>`,
  });
}

/** Mails a fresh verification link (rate limited per account); returns its token. */
export async function sendVerification(
  ctx: AppContext,
  user: UserRow,
  next?: string,
): Promise<string> {
  if (!(await ctx.limits.mailPerAccount.hit(`verify:${user.id}`))) throw tooMany();
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
  return token;
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

/**
 * Checks the password, throttled per IP and per account with growing delays (never a hard
 * lock). A browser the owner logged in from before (`knownDevice`, the hash of its device
 * token) is throttled on its own: an attacker's failures elsewhere do not slow it down.
 */
export async function login(
  ctx: AppContext,
  body: LoginBody,
  ip: string,
  knownDevice: (user: UserRow) => Promise<string | null> = async () => null,
): Promise<UserRow> {
  const { loginPerIp, loginPerAccount } = ctx.limits;
  await refuseWhileThrottled(await loginPerIp.waitSeconds(ip));
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, body.email));
  const device = user ? await knownDevice(user) : null;
  const accountKey = device ? `device:${device}` : `account:${body.email}`;
  await refuseWhileThrottled(await loginPerAccount.waitSeconds(accountKey));
  dummyHash ??= hashPassword(randomToken());
  const { verify } = await argon2();
  const valid = await verify(user?.passwordHash ?? (await dummyHash), body.password).catch(
    () => false,
  );
  if (!user || !valid) {
    await Promise.all([loginPerIp.fail(ip), loginPerAccount.fail(accountKey)]);
    throw new HttpError(401, MESSAGES.loginFailed);
  }
  await loginPerAccount.clear(accountKey);
  // Said only after the right password: it tells nobody else that the account exists.
  if (user.suspendedAt)
    throw forbidden(MODERATION_MESSAGES.accountSuspended(user.suspensionReason));
  return user;
}

async function refuseWhileThrottled(seconds: number): Promise<void> {
  if (seconds > 0) throw tooMany(MESSAGES.loginThrottled(seconds));
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
      if ((await readFeatures(ctx)).invitesEnabled && !user.signupCompletedAt) {
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
