import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { knownDevices } from '../../db/schema-limits.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';

/** The known device of this request for this user (its token's hash), or null. */
export async function knownDeviceOf(
  ctx: AppContext,
  request: FastifyRequest,
  userId: number,
): Promise<string | null> {
  const token = deviceToken(request);
  if (!token) return null;
  const tokenHash = hashToken(token);
  const [row] = await ctx.db
    .select({ tokenHash: knownDevices.tokenHash })
    .from(knownDevices)
    .where(and(eq(knownDevices.tokenHash, tokenHash), eq(knownDevices.userId, userId)));
  return row?.tokenHash ?? null;
}

/**
 * Marks this browser as a known device of the user after a successful log-in: failures from
 * elsewhere then no longer slow the owner down here. Keeps an existing device cookie.
 */
export async function rememberDevice(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  const existing = await knownDeviceOf(ctx, request, user.id);
  if (existing) {
    await ctx.db
      .update(knownDevices)
      .set({ lastUsedAt: new Date() })
      .where(eq(knownDevices.tokenHash, existing));
    return;
  }
  const token = randomToken();
  await ctx.db.insert(knownDevices).values({ tokenHash: hashToken(token), userId: user.id });
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/auth',
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    secure: ctx.config.publicUrl.startsWith('https:'),
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

/** The raw device token of the signed cookie, or null (missing or tampered with). */
function deviceToken(request: FastifyRequest): string | null {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid ? unsigned.value : null;
}
