import type {
  CheckoutOffer,
  LocalCheckoutView,
  Product,
  ReceivedTipsResponse,
  Subscription,
  SubscriptionsResponse,
  ThanksView,
  TipOfferResponse,
} from '@margins/common/schemas/payments';
import type { schema } from '../../db/index.ts';
import type { PriceRow, ProductRow } from './catalogue.ts';
import type { LocalSession } from './local-provider.ts';

// What of payments leaves the server (SPEC §3 shapes): only through these.

type SubscriptionRow = typeof schema.subscriptions.$inferSelect;
type TipRow = typeof schema.tips.$inferSelect;
type GiftRow = typeof schema.gifts.$inferSelect;

/** A subscription as the current-subscription panel reads it (SPEC §3). */
export function presentSubscription(
  subscription: SubscriptionRow,
  productName: string,
): Subscription {
  return {
    id: subscription.providerSubscriptionId,
    status: subscription.status,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    items: {
      data: [
        {
          current_period_end: subscription.currentPeriodEnd.toISOString(),
          quantity: subscription.quantity,
          price: {
            unit_amount: subscription.amount,
            currency: subscription.currency,
            interval: subscription.interval,
          },
        },
      ],
    },
    product: { product_name: productName },
    renewable: subscription.provider !== 'gift',
  };
}

/** The caller's active subscriptions (newest first) and the name of the product in force. */
export function presentSubscriptions(
  rows: ReadonlyArray<{ subscription: SubscriptionRow; product: ProductRow }>,
  freeProductName: string,
): SubscriptionsResponse {
  return {
    subscriptions: rows.map((row) => presentSubscription(row.subscription, row.product.name)),
    product: { product_name: rows[0]?.product.name ?? freeProductName },
  };
}

function presentProduct(product: ProductRow): Product {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    default_price: null,
    prices: {},
    marketing_features: product.marketingFeatures.map((name) => ({ name })),
    word_limit: product.wordLimit,
  };
}

/**
 * The products of the pricing page (SPEC §3 Product), keyed by product id, from their rows
 * with each active price (ordered by product): the default price is the yearly one, else the
 * monthly one.
 */
export function presentProducts(
  rows: ReadonlyArray<{ product: ProductRow; price: PriceRow | null }>,
): Record<string, Product> {
  const products: Record<string, Product> = {};
  for (const { product, price } of rows) {
    const presented = (products[product.id] ??= presentProduct(product));
    if (price) {
      presented.prices[price.interval] = {
        id: price.lookupKey,
        amount: price.amount,
        currency: price.currency,
      };
    }
  }
  for (const product of Object.values(products)) {
    product.default_price = product.prices.year?.id ?? product.prices.month?.id ?? null;
  }
  return products;
}

/** One received tip's row with the titles and names it is shown with. */
export interface ReceivedTipRow {
  tip: TipRow;
  manuscriptTitle: string | null;
  payerName: string | null;
}

/** The tips an author received (their dashboard): who paid, for what, and the total. */
export function presentReceivedTips(
  rows: readonly ReceivedTipRow[],
  total: number,
): ReceivedTipsResponse {
  return {
    tips: rows.map(({ tip, manuscriptTitle, payerName }) => ({
      id: tip.id,
      amount: tip.amount,
      currency: tip.currency,
      manuscript:
        tip.manuscriptId && manuscriptTitle
          ? { id: tip.manuscriptId, title: manuscriptTitle }
          : null,
      from: tip.payerId && payerName ? { id: tip.payerId, display_name: payerName } : null,
      created: tip.createdAt.toISOString(),
    })),
    total,
  };
}

/** The Contribute modal's answer: the signed offer, the author and the manuscript. */
export function presentTipOffer(
  offer: CheckoutOffer,
  manuscript: { id: number; title: string; authorId: number; authorName: string },
): TipOfferResponse {
  return {
    offer,
    author: { id: manuscript.authorId, display_name: manuscript.authorName },
    manuscript: { id: manuscript.id, title: manuscript.title },
  };
}

/** A paid tip as its thanks page shows it. */
export interface TipThanks {
  amount: number;
  authorId: number;
  authorName: string;
  manuscriptId: number | null;
  manuscriptTitle: string | null;
}

/** The thanks page of a checkout: the tip, the gift, or "confirming" while neither is synced. */
export function presentThanks(found: { tip: TipThanks } | { gift: GiftRow } | null): ThanksView {
  if (found && 'tip' in found) {
    const { tip } = found;
    return {
      kind: 'tip',
      amount: tip.amount,
      author: { id: tip.authorId, display_name: tip.authorName },
      manuscript:
        tip.manuscriptId && tip.manuscriptTitle
          ? { id: tip.manuscriptId, title: tip.manuscriptTitle }
          : null,
      giftEmail: null,
    };
  }
  if (found) {
    return {
      kind: 'gift',
      amount: found.gift.amount,
      author: null,
      manuscript: null,
      giftEmail: found.gift.recipientEmail,
    };
  }
  return { kind: 'pending', amount: 0, author: null, manuscript: null, giftEmail: null };
}

/** The local checkout page's view of an open session. */
export function presentLocalCheckout(session: LocalSession): LocalCheckoutView {
  return {
    id: session.id,
    mode: session.mode,
    description: session.line.description,
    amount: session.amount_total,
    currency: session.currency,
    interval: session.line.interval,
    cancelUrl: session.cancel_url,
  };
}
