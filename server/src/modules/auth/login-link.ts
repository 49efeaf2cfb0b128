import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { LOGIN_LINK_MINUTES, type LoginLinkBody } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { loginLinks } from '../../db/schema-limits.ts';
import { tooMany } from '../../lib/http-errors.ts';
import { escapeHtml } from '../../lib/mail.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { safeNext } from './service.ts';

/**
 * Mails a one-time log-in link to the account of this address, if there is one (the answer
 * is the same either way, so the action tells no one which addresses have accounts).
 * The owner's way in while their account is throttled by someone else's guesses.
 */
export async function sendLoginLink(ctx: AppContext, body: LoginLinkBody, ip: string) {
  if (!(await ctx.limits.mailPerAccount.hit(`login-link-ip:${ip}`))) throw tooMany();
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, body.email));
  if (!user) return;
  // Over the per-account limit the mail is quietly not sent: a 429 would reveal the account.
  if (!(await ctx.limits.mailPerAccount.hit(`login-link:${user.id}`))) return;
  // Links are kept a day past their expiry (what was used, and when), then swept here.
  await ctx.db
    .delete(loginLinks)
    .where(lt(loginLinks.expiresAt, new Date(Date.now() - 86_400_000)));
  const token = randomToken();
  await ctx.db.insert(loginLinks).values({
    tokenHash: hashToken(token),
    userId: user.id,
    next: safeNext(body.next),
    expiresAt: new Date(Date.now() + LOGIN_LINK_MINUTES * 60_000),
  });
  const link = `${ctx.config.publicUrl}/auth/login/link?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Your log-in link for Margins',
    text: `Hello ${user.displayName},\n\nOpen this link to log in to Margins:\n${link}\n\nIt works once, for ${LOGIN_LINK_MINUTES} minutes. If you did not ask for it, someone may be guessing your password: ignore this mail, your account stays closed to them.\n`,
    html: `<p>Hello ${escapeHtml(user.displayName)},</p><p><a href="${escapeHtml(link)}">Log in to Margins</a></p><p>The link works once, for ${LOGIN_LINK_MINUTES} minutes. If you did not ask for it, someone may be guessing your password: ignore this mail, your account stays closed to them.</p>`,
  });
}

/**
 * Uses up a log-in link (one atomic update: two tabs cannot both use it) and clears the
 * account's throttle; returns the user and where to go, or null for a bad, used or old link.
 */
export async function useLoginLink(
  ctx: AppContext,
  token: string,
): Promise<{ user: UserRow; next: string } | null> {
  const [link] = await ctx.db
    .update(loginLinks)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(loginLinks.tokenHash, hashToken(token)),
        isNull(loginLinks.usedAt),
        gt(loginLinks.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!link) return null;
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, link.userId));
  if (!user) return null;
  await ctx.limits.loginPerAccount.clear(`account:${user.email}`);
  return { user, next: link.next ?? '/dashboard' };
}
