import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { PriceInterval } from '@margins/common/payments-constants';
import { schema, type Db } from '../../db/index.ts';
import type {
  CheckoutInput,
  PaymentsProvider,
  ProviderSession,
  ProviderSubscription,
} from './provider.ts';

/** Where the SDK sends its requests; tests point it at a local stub. */
interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/**
 * The Stripe SDK, loaded on first use: without Stripe keys (the local provider) it is never
 * needed, and loading it cost every start ~19 MB and ~90 ms.
 */
export function stripeSdk(): typeof Stripe {
  return createRequire(import.meta.url)('stripe') as typeof Stripe;
}

/** A Stripe client with our settings (pinned API version of the pinned SDK). */
export function createStripeClient(secretKey: string, endpoint?: StripeEndpoint): Stripe {
  const StripeSdk = stripeSdk();
  return new StripeSdk(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Margins' },
    ...(endpoint ?? {}),
  });
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Stripe behind our payments interface: Checkout Sessions, Subscriptions. */
export class StripeProvider implements PaymentsProvider {
  readonly name = 'stripe' as const;

  constructor(readonly stripe: Stripe) {}

  async createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }> {
    const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = input.line.providerPriceId
      ? { price: input.line.providerPriceId, quantity: 1 }
      : {
          quantity: 1,
          price_data: {
            currency: input.line.currency,
            unit_amount: input.line.amount,
            product_data: { name: input.line.description },
          },
        };
    const session = await this.stripe.checkout.sessions.create({
      mode: input.mode,
      line_items: [lineItem],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata: input.metadata,
      client_reference_id: input.metadata.userId,
      ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
      // Coupons with Stripe are its promotion codes, typed on its checkout page.
      allow_promotion_codes: true,
      ...(input.mode === 'subscription'
        ? { subscription_data: { metadata: input.metadata } }
        : { payment_intent_data: { metadata: input.metadata } }),
    });
    if (!session.url) throw new Error(`Stripe session ${session.id} has no url`);
    return { id: session.id, url: session.url };
  }

  async retrieveCheckoutSession(id: string): Promise<ProviderSession | null> {
    const session = await this.stripe.checkout.sessions.retrieve(id).catch(notFoundAsNull);
    if (!session) return null;
    return {
      id: session.id,
      mode: session.mode === 'subscription' ? 'subscription' : 'payment',
      status: sessionStatus(session.status),
      paymentStatus: paymentStatus(session.payment_status),
      subscriptionId: idOf(session.subscription),
      customerId: idOf(session.customer),
      amountTotal: session.amount_total ?? 0,
      currency: session.currency ?? 'usd',
      metadata: session.metadata ?? {},
    };
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    const subscription = await this.stripe.subscriptions.retrieve(id).catch(notFoundAsNull);
    if (!subscription) return null;
    const item = subscription.items.data[0];
    if (!item) return null;
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer),
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      currentPeriodEnd: new Date(item.current_period_end * 1000),
      quantity: item.quantity ?? 1,
      providerPriceId: item.price.id,
      amount: item.price.unit_amount ?? 0,
      currency: item.price.currency,
      interval: (item.price.recurring?.interval === 'month' ? 'month' : 'year') as PriceInterval,
      metadata: subscription.metadata ?? {},
    };
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(id, { cancel_at_period_end: cancel });
  }

  /**
   * Creates in Stripe the products and prices of our catalogue that it does not have yet and
   * keeps their ids: the pricing page stays ours, checkout uses Stripe's prices.
   */
  async syncCatalogue(db: Db): Promise<number> {
    let created = 0;
    const products = await db.select().from(schema.products);
    for (const product of products) {
      let stripeProductId = product.stripeProductId;
      if (!stripeProductId) {
        const made = await this.stripe.products.create({
          name: product.name,
          description: product.description || undefined,
          metadata: { slug: product.slug },
          marketing_features: product.marketingFeatures.map((name) => ({ name })),
        });
        stripeProductId = made.id;
        await db
          .update(schema.products)
          .set({ stripeProductId })
          .where(eq(schema.products.id, product.id));
        created++;
      }
      const missing = await db
        .select()
        .from(schema.prices)
        .where(eq(schema.prices.productId, product.id));
      for (const price of missing.filter((row) => !row.stripePriceId)) {
        const made = await this.stripe.prices.create({
          product: stripeProductId,
          unit_amount: price.amount,
          currency: price.currency,
          recurring: { interval: price.interval },
          lookup_key: price.lookupKey,
        });
        await db
          .update(schema.prices)
          .set({ stripePriceId: made.id })
          .where(eq(schema.prices.id, price.id));
        created++;
      }
    }
    return created;
  }
}

function sessionStatus(status: string | null): ProviderSession['status'] {
  return status === 'complete' || status === 'expired' ? status : 'open';
}

function paymentStatus(status: string): ProviderSession['paymentStatus'] {
  return status === 'paid' || status === 'no_payment_required' ? status : 'unpaid';
}

/** A 404 from Stripe is "no such object", not a failure. */
function notFoundAsNull(error: unknown): null {
  if (error instanceof stripeSdk().errors.StripeError && error.statusCode === 404) return null;
  throw error;
}
