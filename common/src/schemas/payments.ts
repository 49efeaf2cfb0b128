import { z } from 'zod';
import { PAYMENT_CODE_MAX, PRICE_INTERVALS, TIP_TYPES } from '../payments-constants.ts';
import { databaseId, singleLineText } from './fields.ts';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email('Enter a valid e-mail address.'));

/** One price of a product (SPEC §3): the id checkout takes, and the amount in minor units. */
export const productPrice = z.object({
  /** What `priceId` of a checkout names. */
  id: z.string(),
  /** Minor units (cents). */
  amount: z.number().int(),
  currency: z.string(),
});
export type ProductPrice = z.infer<typeof productPrice>;

/** A product of the pricing page (SPEC §3 Product). */
export const product = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  /** The id of the price offered first (the yearly one when there is one). */
  default_price: z.string().nullable(),
  /** Prices keyed by interval; a product may lack one. */
  prices: z.object({ month: productPrice.optional(), year: productPrice.optional() }),
  marketing_features: z.array(z.object({ name: z.string() })),
  /** Words an author on this tier may have across live manuscripts. */
  word_limit: z.number().int(),
});
export type Product = z.infer<typeof product>;

/** GET /payments/products: an object of products keyed by product id (SPEC §7). */
export const productsResponse = z.object({ products: z.record(z.string(), product) });
export type ProductsResponse = z.infer<typeof productsResponse>;

/** POST /products/ — join the waiting list. */
export const waitingListBody = z.object({ email });
export const waitingListResponse = z.object({ message: z.string() });

/**
 * POST /payments/checkout-session. SPEC §7 has two payloads: a subscription (priceId, tipFor,
 * sig, nextUrl, loginState) and a tip (tipAmount, tipFor, sig, nextUrl, tipType). A priceId
 * makes it a subscription (or, with giftEmail, a gift of that plan); otherwise tipAmount a tip.
 */
export const checkoutSessionBody = z.object({
  priceId: z.string().max(100).optional(),
  /** As typed, in dollars ("5", "7.50"): bounded on the server (SPEC §5). */
  tipAmount: z.union([z.string().max(30), z.number()]).optional(),
  /** What the page offered to tip (a manuscript or user id); empty for a subscription. */
  tipFor: z.string().max(100).optional().default(''),
  tipType: z.enum(TIP_TYPES).optional().default('manuscript'),
  /** The server's signature over tipType, tipFor and nextUrl, given with the page. */
  sig: z.string().max(200).optional().default(''),
  /** Where to come back to after paying: a page of this site. */
  nextUrl: z.string().max(2000).optional().default('/'),
  loginState: z.string().max(40).optional(),
  /** Buy the plan as a gift for this address (a one-off payment; the code is mailed there). */
  giftEmail: email.optional(),
});
export type CheckoutSessionBody = z.input<typeof checkoutSessionBody>;
export const checkoutSessionResponse = z.object({ sessionUrl: z.string() });

/** What a page gets to start a checkout: the target and where to return, signed. */
export const checkoutOffer = z.object({
  tipFor: z.string(),
  tipType: z.enum(TIP_TYPES),
  nextUrl: z.string(),
  sig: z.string(),
});
export type CheckoutOffer = z.infer<typeof checkoutOffer>;

/** A subscription as the current-subscription panel reads it (SPEC §3 Subscription response). */
export const subscription = z.object({
  /** The provider's id (what renewal takes). */
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  items: z.object({
    data: z.array(
      z.object({
        /** ISO-8601. */
        current_period_end: z.string(),
        quantity: z.number().int(),
        price: z.object({
          unit_amount: z.number().int(),
          currency: z.string(),
          interval: z.enum(PRICE_INTERVALS),
        }),
      }),
    ),
  }),
  product: z.object({ product_name: z.string() }),
  /** A gift cannot renew. */
  renewable: z.boolean(),
});
export type Subscription = z.infer<typeof subscription>;

/** GET /profile/account/subscriptions: the active ones, and the product in force. */
export const subscriptionsResponse = z.object({
  subscriptions: z.array(subscription),
  product: z.object({ product_name: z.string() }),
});
export type SubscriptionsResponse = z.infer<typeof subscriptionsResponse>;

export const renewalParams = z.object({ status: z.enum(['renew', 'cancel']) });
export const renewalBody = z.object({ subscriptionId: z.string().min(1).max(200) });
export const renewalResponse = z.object({ subscription });

/** One tip an author received (their dashboard). */
export const receivedTip = z.object({
  id: z.number(),
  amount: z.number().int(),
  currency: z.string(),
  /** The manuscript tipped, or null for a tip to the author. */
  manuscript: z.object({ id: z.number(), title: z.string() }).nullable(),
  /** Who tipped, or null when they were not logged in. */
  from: z.object({ id: z.number(), display_name: z.string() }).nullable(),
  created: z.string(),
});
export type ReceivedTip = z.infer<typeof receivedTip>;
export const receivedTipsResponse = z.object({
  tips: z.array(receivedTip),
  total: z.number().int(),
});
export type ReceivedTipsResponse = z.infer<typeof receivedTipsResponse>;

/** POST /payments/local/checkout/:session_id/pay — the local provider's card form. */
export const localPayBody = z.object({
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(6),
  name: singleLineText().max(120).optional(),
  couponCode: z.string().trim().max(PAYMENT_CODE_MAX).optional(),
  /** Set when the payer confirmed a card that asks for confirmation (3-D Secure). */
  confirmed: z.boolean().optional(),
});
export const localPayResponse = z.union([
  z.object({ status: z.literal('complete'), redirectUrl: z.string() }),
  z.object({ status: z.literal('requires_confirmation') }),
]);
export type LocalPayResponse = z.infer<typeof localPayResponse>;

/** The local checkout page's data. */
export const localCheckoutView = z.object({
  id: z.string(),
  mode: z.enum(['subscription', 'payment']),
  description: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  interval: z.enum(PRICE_INTERVALS).nullable(),
  cancelUrl: z.string(),
});
export type LocalCheckoutView = z.infer<typeof localCheckoutView>;

/** POST /payments/gifts/redeem. */
export const giftRedeemBody = z.object({ code: z.string().trim().min(1).max(PAYMENT_CODE_MAX) });
export const giftRedeemResponse = z.object({ message: z.string(), subscription });

/** GET /payments/tip-offer?manuscript_id= — what the Contribute modal needs. */
export const tipOfferQuery = z.object({
  manuscript_id: databaseId,
});
export const tipOfferResponse = z.object({
  offer: checkoutOffer,
  author: z.object({ id: z.number(), display_name: z.string() }),
  manuscript: z.object({ id: z.number(), title: z.string() }),
});
export type TipOfferResponse = z.infer<typeof tipOfferResponse>;

/** The data of the thanks page after a tip or a gift. */
export const thanksView = z.object({
  kind: z.enum(['tip', 'gift', 'pending']),
  amount: z.number().int(),
  author: z.object({ id: z.number(), display_name: z.string() }).nullable(),
  manuscript: z.object({ id: z.number(), title: z.string() }).nullable(),
  giftEmail: z.string().nullable(),
});
export type ThanksView = z.infer<typeof thanksView>;

/** A provider's id as we store it: 1–255 printable ASCII characters (Stripe's `evt_…`, `sub_…`). */
const providerObjectId = z.string().regex(/^[\x21-\x7e]{1,255}$/);

/**
 * POST /payments/webhook, once its signature holds: what makes the body an event at all (an id
 * we can store and a type). Anything else is a 400; nothing else of it is read here.
 */
export const providerWebhookEvent = z.object({
  id: providerObjectId,
  type: z.string().max(255),
});

/** The object an event is about, when it has an id we could re-read (else it is ignored). */
export const providerEventObject = z.object({
  data: z.object({ object: z.object({ id: providerObjectId }) }),
});
