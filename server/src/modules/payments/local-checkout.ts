import { and, eq, sql } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { TEST_CARDS } from '@margins/common/payments-constants';
import type { LocalPayResponse } from '@margins/common/schemas/payments';
import type { z } from 'zod';
import type { localPayBody } from '@margins/common/schemas/payments';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { badRequest, HttpError } from '../../lib/http-errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import { redeemCoupon, discounted } from './coupons.ts';
import {
  insertLocalSubscription,
  readLocalSession,
  writeLocalObject,
  type LocalProvider,
  type LocalSession,
  type LocalSubscription,
} from './local-provider.ts';
import { handleProviderEvent } from './sync.ts';

type PayInput = z.infer<typeof localPayBody>;

/** A local checkout session still open for payment, or null. */
export async function openLocalSession(ctx: AppContext, id: string): Promise<LocalSession | null> {
  const session = await readLocalSession(ctx.db, id);
  return session && session.status === 'open' ? session : null;
}

/** Luhn's check digit, as card numbers carry it. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card form's fields checked as Stripe's test mode does; answers the card's digits. */
function checkCard(input: PayInput, now = new Date()): string {
  const digits = input.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    throw badRequest({ cardNumber: [PAYMENT_MESSAGES.cardNumberInvalid] });
  }
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim());
  const month = Number(expiry?.[1]);
  const year = expiry ? Number(expiry[2]!.length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
  // A card is good until the end of its expiry month.
  if (!expiry || month < 1 || month > 12 || new Date(Date.UTC(year, month, 1)) <= now) {
    throw badRequest({ expiry: [PAYMENT_MESSAGES.cardExpiryInvalid] });
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    throw badRequest({ cvc: [PAYMENT_MESSAGES.cardCvcInvalid] });
  }
  return digits;
}

function periodEnd(from: Date, interval: 'month' | 'year'): Date {
  const end = new Date(from);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/**
 * Pays an open local session with a test card: 4242… succeeds, 4000 0000 0000 0002 is
 * declined (nothing changes), 4000 0025 0000 3155 asks for confirmation first. A success
 * completes the session (and creates the subscription) in one transaction, then reports
 * Stripe's events through the same sync code a webhook uses.
 */
export async function payLocalSession(
  ctx: AppContext,
  provider: LocalProvider,
  id: string,
  input: PayInput,
): Promise<LocalPayResponse> {
  const digits = checkCard(input);
  const existing = await readLocalSession(ctx.db, id);
  if (!existing || existing.status !== 'open')
    throw new HttpError(410, PAYMENT_MESSAGES.sessionGone);
  if (digits === TEST_CARDS.declined) {
    throw new HttpError(402, PAYMENT_MESSAGES.cardDeclined, {
      cardNumber: [PAYMENT_MESSAGES.cardDeclined],
    });
  }
  if (digits === TEST_CARDS.needsConfirmation && !input.confirmed) {
    return { status: 'requires_confirmation' };
  }

  const completed = await ctx.db.transaction(async (tx) => {
    // Claim the session: of two payments of one session, only one completes it.
    const [claimed] = await tx
      .update(schema.localPaymentObjects)
      .set({ updatedAt: new Date() })
      .where(
        and(
          eq(schema.localPaymentObjects.id, id),
          sql`${schema.localPaymentObjects.data}->>'status' = 'open'`,
        ),
      )
      .returning();
    if (!claimed) throw new HttpError(410, PAYMENT_MESSAGES.sessionGone);
    const session = claimed.data as unknown as LocalSession;
    let amount = session.amount_total;
    if (input.couponCode) amount = discounted(amount, await redeemCoupon(tx, input.couponCode));
    let subscriptionId: string | null = null;
    if (session.mode === 'subscription' && session.line.providerPriceId && session.line.interval) {
      subscriptionId = `sub_local_${randomToken(14)}`;
      const subscription: LocalSubscription = {
        id: subscriptionId,
        customer: session.customer,
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: periodEnd(new Date(), session.line.interval).toISOString(),
        quantity: 1,
        price: {
          id: session.line.providerPriceId,
          unit_amount: amount,
          currency: session.currency,
          interval: session.line.interval,
        },
        metadata: session.metadata,
      };
      await insertLocalSubscription(tx, subscription);
    }
    const done: LocalSession = {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      amount_total: amount,
      subscription: subscriptionId,
    };
    await writeLocalObject(tx, id, done);
    return done;
  });

  // The events Stripe would send, through the same handler as its webhooks.
  if (completed.subscription) {
    await handleProviderEvent(ctx, provider, {
      id: `evt_local_${randomToken(14)}`,
      type: 'customer.subscription.created',
      objectId: completed.subscription,
    });
  }
  await handleProviderEvent(ctx, provider, {
    id: `evt_local_${randomToken(14)}`,
    type: 'checkout.session.completed',
    objectId: completed.id,
  });
  return {
    status: 'complete',
    redirectUrl: completed.success_url.replace('{CHECKOUT_SESSION_ID}', id),
  };
}
