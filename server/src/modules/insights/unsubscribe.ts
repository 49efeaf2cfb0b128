import { and, eq, isNull } from 'drizzle-orm';
import { INSIGHTS_MESSAGES, type NotificationKey } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { updateNotificationPreferences } from '../profile/notification-preferences.ts';

/** A one-click unsubscribe link for a mail of this kind (written in the mail's transaction). */
export async function unsubscribeLink(
  ctx: AppContext,
  tx: Executor,
  userId: number,
  purpose: NotificationKey,
): Promise<string> {
  const token = randomToken();
  await tx
    .insert(schema.unsubscribeTokens)
    .values({ tokenHash: hashToken(token), userId, purpose });
  return `${ctx.config.publicUrl}/unsubscribe/${token}`;
}

type UnsubscribeOutcome = 'done' | 'used' | 'unknown';

/**
 * GET /unsubscribe/{token}: what the link would do, changing nothing (a mail scanner that
 * follows every link must not spend it): 'ready' asks the person to confirm with the button.
 */
export async function unsubscribeState(
  ctx: AppContext,
  token: string,
): Promise<{ outcome: 'ready' | 'used' | 'unknown'; message: string }> {
  const table = schema.unsubscribeTokens;
  const [row] = await ctx.db
    .select({ usedAt: table.usedAt })
    .from(table)
    .where(eq(table.tokenHash, hashToken(token)));
  if (!row) return { outcome: 'unknown', message: INSIGHTS_MESSAGES.unsubscribeUnknown };
  if (row.usedAt) return { outcome: 'used', message: INSIGHTS_MESSAGES.unsubscribeUsed };
  return { outcome: 'ready', message: INSIGHTS_MESSAGES.unsubscribeConfirm };
}

/**
 * POST /unsubscribe/{token} (the page's button, or a mail client's RFC 8058 one-click POST):
 * turns the link's notification key off for its user, without a login. Works once per
 * purpose: the link is spent, and so is every other unused link of the same user and purpose
 * (a second click on any reminder says it was already done).
 */
export async function unsubscribe(
  ctx: AppContext,
  token: string,
): Promise<{ outcome: UnsubscribeOutcome; message: string }> {
  const table = schema.unsubscribeTokens;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(table)
      .where(eq(table.tokenHash, hashToken(token)))
      .for('update');
    if (!row) return { outcome: 'unknown', message: INSIGHTS_MESSAGES.unsubscribeUnknown };
    if (row.usedAt) return { outcome: 'used', message: INSIGHTS_MESSAGES.unsubscribeUsed };
    await tx
      .update(table)
      .set({ usedAt: new Date() })
      .where(
        and(eq(table.userId, row.userId), eq(table.purpose, row.purpose), isNull(table.usedAt)),
      );
    await updateNotificationPreferences(tx, row.userId, { [row.purpose]: [] });
    return { outcome: 'done', message: INSIGHTS_MESSAGES.unsubscribed };
  });
}
