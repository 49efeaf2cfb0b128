import { randomBytes } from 'node:crypto';
import { count, desc, eq } from 'drizzle-orm';
import { MESSAGES } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { HttpError } from '../../lib/http-errors.ts';

type InviteCodeRow = typeof schema.platformInviteCodes.$inferSelect;

/** 32 symbols without 0/O and 1/I, so a code read aloud or typed is not mistaken. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 10 symbols of 5 bits: 50 random bits, short enough to type, too many to guess. */
export const INVITE_CODE_LENGTH = 10;

/** A new random platform invite code. */
export function randomInviteCode(): string {
  // 256 is a multiple of 32, so masking a byte keeps every symbol equally likely.
  return [...randomBytes(INVITE_CODE_LENGTH)].map((byte) => CODE_ALPHABET[byte & 31]).join('');
}

/** The codes a user created, newest first. */
export async function listInviteCodes(db: Executor, userId: number): Promise<InviteCodeRow[]> {
  return db
    .select()
    .from(schema.platformInviteCodes)
    .where(eq(schema.platformInviteCodes.createdById, userId))
    .orderBy(desc(schema.platformInviteCodes.createdAt), desc(schema.platformInviteCodes.id));
}

/** How many more codes a user may create, given how many exist. */
export const invitesRemaining = (ctx: AppContext, created: number) =>
  Math.max(0, ctx.config.platformInviteLimit - created);

/**
 * Creates a platform invite code unless the user reached the limit (400 "No more invites
 * available"). The user row is locked, so parallel calls cannot pass the limit together.
 */
export async function createInviteCode(
  ctx: AppContext,
  user: UserRow,
): Promise<{ inviteCode: InviteCodeRow; remaining: number }> {
  return ctx.db.transaction(async (tx) => {
    await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.id, user.id))
      .for('update');
    const [created] = await tx
      .select({ value: count() })
      .from(schema.platformInviteCodes)
      .where(eq(schema.platformInviteCodes.createdById, user.id));
    const existing = created?.value ?? 0;
    if (existing >= ctx.config.platformInviteLimit)
      throw new HttpError(400, MESSAGES.noMoreInvites);
    // A clash of 50 random bits is next to impossible; retry rather than fail if it happens.
    for (let attempt = 0; attempt < 5; attempt++) {
      const [inviteCode] = await tx
        .insert(schema.platformInviteCodes)
        .values({ code: randomInviteCode(), createdById: user.id })
        .onConflictDoNothing({ target: schema.platformInviteCodes.code })
        .returning();
      if (inviteCode) return { inviteCode, remaining: invitesRemaining(ctx, existing + 1) };
    }
    throw new Error('Could not find a free invite code.');
  });
}
