import { and, desc, eq, gt, inArray, or, ne } from 'drizzle-orm';
import { MESSAGES } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '@margins/common/payments-constants';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { badRequest, HttpError, notFound } from '../../lib/http-errors.ts';
import type { ProductRow } from './catalogue.ts';
import { canModifySubscription } from './policy.ts';
import type { PaymentsProvider } from './provider.ts';
import { syncSubscription } from './sync.ts';

type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

/** Active (SPEC §4) and, for a gift, not yet past its end. */
const isActive = () =>
  and(
    inArray(schema.subscriptions.status, [...ACTIVE_SUBSCRIPTION_STATUSES]),
    or(
      ne(schema.subscriptions.provider, 'gift'),
      gt(schema.subscriptions.currentPeriodEnd, new Date()),
    ),
  );

/** A user's active subscriptions with their products, newest first. */
async function activeRows(executor: Executor, userId: number) {
  return executor
    .select({ subscription: schema.subscriptions, product: schema.products })
    .from(schema.subscriptions)
    .innerJoin(schema.products, eq(schema.products.id, schema.subscriptions.productId))
    .where(and(eq(schema.subscriptions.userId, userId), isActive()))
    .orderBy(desc(schema.subscriptions.createdAt));
}

/** The user's active subscription (the one that sets their tier), or null. */
export async function activeSubscriptionOf(executor: Executor, userId: number) {
  const [row] = await activeRows(executor, userId);
  return row ?? null;
}

/** Words the user may keep: their active tier's limit, never below the free tier's. */
export async function tierWordLimit(
  executor: Executor,
  userId: number,
  freeLimit: number,
): Promise<number> {
  const rows = await activeRows(executor, userId);
  return Math.max(freeLimit, ...rows.map((row) => row.product.wordLimit));
}

/**
 * GET /profile/account/subscriptions: the user's active subscriptions with their products, and
 * the name of the product in force (the newest subscription's, else the free one's).
 */
export async function listSubscriptions(ctx: AppContext, user: UserRow) {
  const rows = await activeRows(ctx.db, user.id);
  const [free] = rows.length
    ? []
    : await ctx.db
        .select({ name: schema.products.name })
        .from(schema.products)
        .where(eq(schema.products.slug, 'free'));
  return { rows, productInForce: rows[0]?.product.name ?? free?.name ?? 'Free' };
}

/**
 * Cancel Renewal / Keep Subscription (SPEC §4): tells the provider, re-reads its state and
 * answers the subscription with its product. Only the owner's own subscription: any other id
 * is "can't locate".
 */
export async function changeRenewal(
  ctx: AppContext,
  provider: PaymentsProvider,
  user: UserRow,
  status: 'renew' | 'cancel',
  subscriptionId: string,
): Promise<{ subscription: SubscriptionRow; product: ProductRow }> {
  const [row] = await ctx.db
    .select()
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.providerSubscriptionId, subscriptionId));
  if (!row || !canModifySubscription(user, row)) throw notFound(MESSAGES.cantLocateSubscription);
  if (row.provider === 'gift') {
    throw badRequest({ subscriptionId: [PAYMENT_MESSAGES.subscriptionCannotRenew] });
  }
  if (row.provider !== provider.name) throw notFound(MESSAGES.cantLocateSubscription);
  try {
    await provider.setCancelAtPeriodEnd(subscriptionId, status === 'cancel');
    await syncSubscription(ctx, provider, subscriptionId);
  } catch (error) {
    ctx.log.error({ err: error, subscriptionId }, 'payments: renewal change failed');
    throw new HttpError(502, MESSAGES.cantLocateSubscription);
  }
  const [updated] = await ctx.db
    .select({ subscription: schema.subscriptions, product: schema.products })
    .from(schema.subscriptions)
    .innerJoin(schema.products, eq(schema.products.id, schema.subscriptions.productId))
    .where(eq(schema.subscriptions.id, row.id));
  return updated!;
}
