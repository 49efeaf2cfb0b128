import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';

/**
 * Sign-up hook (at e-mail verification, in its transaction): e-mail invites to the address
 * now proven become the user's pending invites, so an invited reader who signs up later finds
 * them waiting.
 */
export async function claimEmailInvites(
  tx: Executor,
  user: Pick<UserRow, 'id' | 'email'>,
): Promise<void> {
  const open = await tx
    .select()
    .from(schema.invites)
    .where(
      and(
        eq(schema.invites.kind, 'email'),
        isNull(schema.invites.invitedUserId),
        eq(schema.invites.email, user.email.toLowerCase()),
      ),
    );
  if (open.length === 0) return;
  const taken = await tx
    .select({ manuscriptId: schema.invites.manuscriptId })
    .from(schema.invites)
    .where(
      and(
        eq(schema.invites.invitedUserId, user.id),
        inArray(
          schema.invites.manuscriptId,
          open.map((invite) => invite.manuscriptId),
        ),
      ),
    );
  const hasRow = new Set(taken.map((row) => row.manuscriptId));
  for (const invite of open) {
    if (hasRow.has(invite.manuscriptId)) {
      // They already relate to this manuscript (invited by handle, say): one row per reader.
      await tx.delete(schema.invites).where(eq(schema.invites.id, invite.id));
      continue;
    }
    hasRow.add(invite.manuscriptId);
    await tx
      .update(schema.invites)
      .set({ invitedUserId: user.id, updatedAt: new Date() })
      .where(eq(schema.invites.id, invite.id));
  }
}
