import { eq } from 'drizzle-orm';
import type { PriceInterval } from '@margins/common/payments-constants';
import { schema, type Db, type Executor } from '../../db/index.ts';
import { randomToken } from '../../lib/tokens.ts';
import type {
  CheckoutInput,
  PaymentsProvider,
  ProviderSession,
  ProviderSubscription,
} from './provider.ts';

/** The local provider's checkout session record (Stripe's fields that we read). */
export interface LocalSession {
  id: string;
  mode: 'subscription' | 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  line: CheckoutInput['line'];
}

/** The local provider's subscription record. */
export interface LocalSubscription {
  id: string;
  customer: string | null;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: string;
  quantity: number;
  price: { id: string; unit_amount: number; currency: string; interval: PriceInterval };
  metadata: Record<string, string>;
}

/** Where the local provider's checkout page lives. */
const localCheckoutPath = (id: string) => `/payments/local/checkout/${id}`;

/**
 * A payments provider of our own for when no Stripe keys are set: sessions and subscriptions
 * kept in local_payment_objects in Stripe's shape, paid on our own checkout page
 * (local-checkout.ts) with Stripe's test cards, and reported through the same sync code.
 */
export class LocalProvider implements PaymentsProvider {
  readonly name = 'local' as const;

  constructor(private readonly db: Db) {}

  async createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }> {
    const id = `cs_local_${randomToken(18)}`;
    const session: LocalSession = {
      id,
      mode: input.mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: input.line.amount,
      currency: input.line.currency,
      customer: input.metadata.userId ? `cus_local_${input.metadata.userId}` : null,
      customer_email: input.customerEmail,
      subscription: null,
      metadata: input.metadata,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      line: input.line,
    };
    await this.db
      .insert(schema.localPaymentObjects)
      .values({ id, kind: 'checkout.session', data: { ...session } });
    return { id, url: localCheckoutPath(id) };
  }

  async retrieveCheckoutSession(id: string): Promise<ProviderSession | null> {
    const session = await readLocalSession(this.db, id);
    if (!session) return null;
    return {
      id: session.id,
      mode: session.mode,
      status: session.status,
      paymentStatus: session.payment_status,
      subscriptionId: session.subscription,
      customerId: session.customer,
      amountTotal: session.amount_total,
      currency: session.currency,
      metadata: session.metadata,
    };
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    const subscription = await readLocalObject<LocalSubscription>(this.db, id, 'subscription');
    if (!subscription) return null;
    return {
      id: subscription.id,
      customerId: subscription.customer,
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      currentPeriodEnd: new Date(subscription.current_period_end),
      quantity: subscription.quantity,
      providerPriceId: subscription.price.id,
      amount: subscription.price.unit_amount,
      currency: subscription.price.currency,
      interval: subscription.price.interval,
      metadata: subscription.metadata,
    };
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<void> {
    const subscription = await readLocalObject<LocalSubscription>(this.db, id, 'subscription');
    if (!subscription) throw new Error(`No local subscription ${id}`);
    await writeLocalObject(this.db, id, { ...subscription, cancel_at_period_end: cancel });
  }
}

export async function readLocalSession(
  executor: Executor,
  id: string,
): Promise<LocalSession | null> {
  return readLocalObject<LocalSession>(executor, id, 'checkout.session');
}

async function readLocalObject<T>(
  executor: Executor,
  id: string,
  kind: 'checkout.session' | 'subscription',
): Promise<T | null> {
  const [row] = await executor
    .select()
    .from(schema.localPaymentObjects)
    .where(eq(schema.localPaymentObjects.id, id));
  if (!row || row.kind !== kind) return null;
  return row.data as T;
}

export async function writeLocalObject(
  executor: Executor,
  id: string,
  data: LocalSession | LocalSubscription,
): Promise<void> {
  await executor
    .update(schema.localPaymentObjects)
    .set({ data: { ...data }, updatedAt: new Date() })
    .where(eq(schema.localPaymentObjects.id, id));
}

export async function insertLocalSubscription(
  executor: Executor,
  subscription: LocalSubscription,
): Promise<void> {
  await executor
    .insert(schema.localPaymentObjects)
    .values({ id: subscription.id, kind: 'subscription', data: { ...subscription } });
}
