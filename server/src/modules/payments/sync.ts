import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { priceByProviderId } from './catalogue.ts';
import { giftMail, newGiftCode } from './gift-mail.ts';
import type {
  PaymentsProvider,
  ProviderEvent,
  ProviderSession,
  ProviderSubscription,
} from './provider.ts';

/** What handling an event did. */
type SyncOutcome = 'synced' | 'duplicate' | 'ignored';

const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
]);
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
]);

/** The provider could not be read (its error is the cause): the event may be sent again. */
export class ProviderUnreadable extends Error {
  constructor(cause: unknown) {
    super('payments: the provider could not be read', { cause });
  }
}

/** Is this an event the sync acts on: a type it knows, about an object it can re-read? */
const handlesEvent = (event: ProviderEvent): boolean =>
  event.objectId !== null &&
  (SESSION_EVENTS.has(event.type) || SUBSCRIPTION_EVENTS.has(event.type));

/**
 * Handles a verified provider event (a Stripe webhook, or the local provider's report): the
 * event only says which object changed; its current state is re-read from the provider and
 * upserted by the provider's ids, with the event's id, in one transaction. A replay or a
 * duplicate finds its id stored and changes nothing; events out of order each write the
 * latest state. An event of a type we do not handle, or about no object, is ignored and not
 * stored. A failed read of the provider throws ProviderUnreadable, with nothing written.
 */
export async function handleProviderEvent(
  ctx: AppContext,
  provider: PaymentsProvider,
  event: ProviderEvent,
): Promise<SyncOutcome> {
  if (!handlesEvent(event)) return 'ignored';
  const [seen] = await ctx.db
    .select({ id: schema.paymentEvents.id })
    .from(schema.paymentEvents)
    .where(eq(schema.paymentEvents.id, event.id));
  if (seen) return 'duplicate';

  // Read the provider before the transaction: no network wait while it holds locks.
  const state = await readState(provider, event).catch((error: unknown) => {
    throw new ProviderUnreadable(error);
  });
  const outcome = await ctx.db.transaction(async (tx) => {
    const stored = await tx
      .insert(schema.paymentEvents)
      .values({ id: event.id, provider: provider.name, type: event.type, objectId: event.objectId })
      .onConflictDoNothing()
      .returning({ id: schema.paymentEvents.id });
    if (stored.length === 0) return { outcome: 'duplicate' as const, mails: [] };
    const mails = await applyState(ctx, tx, provider, state);
    return { outcome: state.kind === 'none' ? ('ignored' as const) : ('synced' as const), mails };
  });
  for (const id of outcome.mails) ctx.mailer.deliver(id);
  return outcome.outcome;
}

/**
 * Re-reads one checkout session and writes what it bought (when it is paid). Idempotent: the
 * return page calls it too, so a payer sees the result even before the webhook arrives.
 */
export async function syncCheckoutSession(
  ctx: AppContext,
  provider: PaymentsProvider,
  sessionId: string,
): Promise<ProviderSession | null> {
  const state = await readState(provider, {
    id: '',
    type: 'checkout.session.completed',
    objectId: sessionId,
  });
  const mails = await ctx.db.transaction((tx) => applyState(ctx, tx, provider, state));
  for (const id of mails) ctx.mailer.deliver(id);
  return state.kind === 'session' ? state.session : null;
}

/** Re-reads one subscription and upserts it. */
export async function syncSubscription(
  ctx: AppContext,
  provider: PaymentsProvider,
  subscriptionId: string,
): Promise<void> {
  const subscription = await provider.retrieveSubscription(subscriptionId);
  if (!subscription) return;
  await ctx.db.transaction((tx) => upsertSubscription(ctx, tx, provider, subscription));
}

type State =
  | { kind: 'none' }
  | { kind: 'session'; session: ProviderSession; subscription: ProviderSubscription | null }
  | { kind: 'subscription'; subscription: ProviderSubscription };

async function readState(provider: PaymentsProvider, event: ProviderEvent): Promise<State> {
  if (!event.objectId) return { kind: 'none' };
  if (SESSION_EVENTS.has(event.type)) {
    const session = await provider.retrieveCheckoutSession(event.objectId);
    if (!session) return { kind: 'none' };
    const subscription = session.subscriptionId
      ? await provider.retrieveSubscription(session.subscriptionId)
      : null;
    return { kind: 'session', session, subscription };
  }
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = await provider.retrieveSubscription(event.objectId);
    return subscription ? { kind: 'subscription', subscription } : { kind: 'none' };
  }
  return { kind: 'none' };
}

/** Writes the state read; answers the ids of mails to deliver after commit. */
async function applyState(
  ctx: AppContext,
  tx: Tx,
  provider: PaymentsProvider,
  state: State,
): Promise<number[]> {
  if (state.kind === 'subscription') {
    await upsertSubscription(ctx, tx, provider, state.subscription);
    return [];
  }
  if (state.kind !== 'session') return [];
  const { session } = state;
  const paid = session.status === 'complete' && session.paymentStatus !== 'unpaid';
  if (!paid) return [];
  if (state.subscription) await upsertSubscription(ctx, tx, provider, state.subscription);
  if (session.metadata.kind === 'tip') await insertTip(tx, provider, session);
  if (session.metadata.kind === 'gift') return insertGift(ctx, tx, provider, session);
  return [];
}

async function upsertSubscription(
  ctx: AppContext,
  tx: Tx,
  provider: PaymentsProvider,
  subscription: ProviderSubscription,
): Promise<void> {
  const userId = Number(subscription.metadata.userId);
  const priced = await priceByProviderId(tx, provider.name, subscription.providerPriceId);
  if (!Number.isInteger(userId) || userId <= 0 || !priced) {
    ctx.log.warn(
      { subscription: subscription.id, price: subscription.providerPriceId },
      'payments: subscription of an unknown user or price left out',
    );
    return;
  }
  const values = {
    productId: priced.product.id,
    priceId: priced.price.id,
    providerCustomerId: subscription.customerId,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    currentPeriodEnd: subscription.currentPeriodEnd,
    quantity: subscription.quantity,
    amount: subscription.amount,
    currency: subscription.currency,
    interval: subscription.interval,
    updatedAt: new Date(),
  };
  await tx
    .insert(schema.subscriptions)
    .values({
      ...values,
      userId,
      provider: provider.name,
      providerSubscriptionId: subscription.id,
    })
    .onConflictDoUpdate({ target: schema.subscriptions.providerSubscriptionId, set: values });
}

async function insertTip(tx: Tx, provider: PaymentsProvider, session: ProviderSession) {
  const authorId = Number(session.metadata.authorId);
  if (!Number.isInteger(authorId) || authorId <= 0) return;
  const payerId = Number(session.metadata.userId);
  const manuscriptId = Number(session.metadata.manuscriptId);
  await tx
    .insert(schema.tips)
    .values({
      provider: provider.name,
      providerSessionId: session.id,
      payerId: Number.isInteger(payerId) && payerId > 0 ? payerId : null,
      authorId,
      manuscriptId: Number.isInteger(manuscriptId) && manuscriptId > 0 ? manuscriptId : null,
      tipType: session.metadata.tipType === 'author' ? 'author' : 'manuscript',
      amount: session.amountTotal,
      currency: session.currency,
    })
    .onConflictDoNothing({ target: schema.tips.providerSessionId });
}

async function insertGift(
  ctx: AppContext,
  tx: Tx,
  provider: PaymentsProvider,
  session: ProviderSession,
): Promise<number[]> {
  const productId = Number(session.metadata.productId);
  const email = session.metadata.giftEmail;
  const interval = session.metadata.interval === 'month' ? 'month' : 'year';
  if (!email || !Number.isInteger(productId)) return [];
  const purchaserId = Number(session.metadata.userId);
  const [gift] = await tx
    .insert(schema.gifts)
    .values({
      code: newGiftCode(),
      purchaserId: Number.isInteger(purchaserId) && purchaserId > 0 ? purchaserId : null,
      recipientEmail: email,
      productId,
      interval,
      amount: session.amountTotal,
      provider: provider.name,
      providerSessionId: session.id,
    })
    .onConflictDoNothing({ target: schema.gifts.providerSessionId })
    .returning();
  if (!gift) return [];
  const [product] = await tx
    .select({ name: schema.products.name })
    .from(schema.products)
    .where(eq(schema.products.id, productId));
  const mailId = await ctx.mailer.enqueue(
    tx,
    giftMail(ctx.config.publicUrl, email, gift.code, product?.name ?? 'a Margins plan', interval),
  );
  return [mailId];
}
