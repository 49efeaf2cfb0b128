import type { PriceInterval } from '@margins/common/payments-constants';

/**
 * The one interface every payments provider implements (Stripe, and the local provider that
 * stands in for it without keys). Shapes are ours, read from the provider's objects, so that
 * the sync code (sync.ts) is the same for both.
 */
export interface PaymentsProvider {
  readonly name: 'local' | 'stripe';
  /** Opens a hosted checkout; answers where to send the browser. */
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(id: string): Promise<ProviderSession | null>;
  retrieveSubscription(id: string): Promise<ProviderSubscription | null>;
  /** Turns renewal off (cancel at period end) or back on. */
  setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<void>;
}

/** What a checkout sells: a plan (its provider price id) or a one-off amount. */
export interface CheckoutInput {
  mode: 'subscription' | 'payment';
  /** The buyer's e-mail, when logged in (the provider's receipt goes there). */
  customerEmail: string | null;
  line: {
    /** The provider's price id (a subscription); null for a one-off amount. */
    providerPriceId: string | null;
    amount: number;
    currency: string;
    interval: PriceInterval | null;
    description: string;
  };
  /** Carried on the session and the subscription: kind, userId, tip target, gift e-mail… */
  metadata: Record<string, string>;
  /** Contains {CHECKOUT_SESSION_ID}, as Stripe fills it in. */
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderSession {
  id: string;
  mode: 'subscription' | 'payment';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  subscriptionId: string | null;
  customerId: string | null;
  /** What was charged, after discounts, in minor units. */
  amountTotal: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface ProviderSubscription {
  id: string;
  customerId: string | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date;
  quantity: number;
  providerPriceId: string;
  amount: number;
  currency: string;
  interval: PriceInterval;
  metadata: Record<string, string>;
}

/** A verified provider event: what happened, and to which object. */
export interface ProviderEvent {
  id: string;
  type: string;
  objectId: string | null;
}
