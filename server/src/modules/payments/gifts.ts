import { and, eq, isNull } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { badRequest, conflict } from '../../lib/http-errors.ts';
import { activeSubscriptionOf } from './subscriptions.ts';

type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

/**
 * Redeems a gift code for the logged-in user: one period of the plan as a subscription of
 * our own (provider "gift", not renewing). A code works once; the claim is one guarded UPDATE.
 * Answers the message, and the subscription with its product's name.
 */
export async function redeemGift(
  ctx: AppContext,
  user: UserRow,
  typed: string,
): Promise<{ message: string; subscription: SubscriptionRow; productName: string }> {
  const code = typed.trim().toUpperCase();
  return ctx.db.transaction(async (tx) => {
    if (await activeSubscriptionOf(tx, user.id)) throw conflict(PAYMENT_MESSAGES.giftHasActive);
    const [gift] = await tx
      .update(schema.gifts)
      .set({ redeemedById: user.id, redeemedAt: new Date() })
      .where(and(eq(schema.gifts.code, code), isNull(schema.gifts.redeemedAt)))
      .returning();
    if (!gift) throw badRequest({ code: [PAYMENT_MESSAGES.giftCodeInvalid] });
    const [product] = await tx
      .select()
      .from(schema.products)
      .where(eq(schema.products.id, gift.productId));
    const end = new Date();
    if (gift.interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
    else end.setUTCMonth(end.getUTCMonth() + 1);
    const [subscription] = await tx
      .insert(schema.subscriptions)
      .values({
        userId: user.id,
        productId: gift.productId,
        provider: 'gift',
        providerSubscriptionId: `gift_${gift.id}`,
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: end,
        amount: gift.amount,
        interval: gift.interval,
      })
      .returning();
    const productName = product?.name ?? 'your plan';
    return {
      message: PAYMENT_MESSAGES.giftRedeemed(productName),
      subscription: subscription!,
      productName,
    };
  });
}
