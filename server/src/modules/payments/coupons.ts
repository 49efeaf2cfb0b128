import { and, eq, lt, or, isNull, sql } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { schema, type Executor } from '../../db/index.ts';
import { badRequest } from '../../lib/http-errors.ts';

type CouponRow = typeof schema.coupons.$inferSelect;

/** What a coupon takes off an amount (never below zero). */
export function discounted(amount: number, coupon: Pick<CouponRow, 'percentOff' | 'amountOff'>) {
  if (coupon.percentOff) return Math.max(0, Math.round((amount * (100 - coupon.percentOff)) / 100));
  if (coupon.amountOff) return Math.max(0, amount - coupon.amountOff);
  return amount;
}

/**
 * Redeems a local coupon in the payment's transaction: it must exist, be active, not expired
 * and under its redemption limit (counted by one guarded UPDATE, so two payers cannot both
 * take the last one). Answers the coupon, or a 400 naming the code field.
 */
export async function redeemCoupon(executor: Executor, typed: string): Promise<CouponRow> {
  const code = typed.trim().toUpperCase();
  const [coupon] = await executor
    .select()
    .from(schema.coupons)
    .where(eq(schema.coupons.code, code));
  if (!coupon || !coupon.active) throw badRequest({ couponCode: [PAYMENT_MESSAGES.couponInvalid] });
  if (coupon.expiresAt && coupon.expiresAt.getTime() <= Date.now()) {
    throw badRequest({ couponCode: [PAYMENT_MESSAGES.couponExpired] });
  }
  const [taken] = await executor
    .update(schema.coupons)
    .set({ timesRedeemed: sql`${schema.coupons.timesRedeemed} + 1` })
    .where(
      and(
        eq(schema.coupons.id, coupon.id),
        or(
          isNull(schema.coupons.maxRedemptions),
          lt(schema.coupons.timesRedeemed, schema.coupons.maxRedemptions),
        ),
      ),
    )
    .returning();
  if (!taken) throw badRequest({ couponCode: [PAYMENT_MESSAGES.couponUsedUp] });
  return taken;
}
