/** Constants of payments (SPEC §9 prices, and our own bounds where SPEC is silent). */

/** Prices are kept in minor units (cents) and shown in USD (SPEC §9). */
export const CURRENCY = 'usd';
export const MINOR_UNITS_PER_MAJOR = 100;

export const PRICE_INTERVALS = ['month', 'year'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];
/** The pricing page opens on the yearly prices (SPEC §9). */
export const DEFAULT_PRICING_INTERVAL: PriceInterval = 'year';
/** The pricing grid has three columns (SPEC §9). */
export const PRICING_COLUMNS = 3;

/** What a tip is for; SPEC §5: tipType defaults to manuscript. */
export const TIP_TYPES = ['manuscript', 'author'] as const;
export type TipType = (typeof TIP_TYPES)[number];
/**
 * Bounds of one tip, in cents, checked on the server (the client sends the amount as typed):
 * below a dollar the card fees eat it, above $500 it is more likely a typo than a gift.
 */
export const TIP_MIN_CENTS = 100;
export const TIP_MAX_CENTS = 50_000;
/** The preset buttons of the Contribute modal, in dollars. */
export const TIP_PRESETS = [3, 5, 10, 20] as const;

/** Stripe's test cards, which the local provider honours (README: payments). */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  needsConfirmation: '4000002500003155',
} as const;

/** Subscription statuses that give the tier's benefits (SPEC §4 lists "active" only). */
export const ACTIVE_SUBSCRIPTION_STATUSES = ['active'] as const;

/** Longest coupon or gift code a person may type. */
export const PAYMENT_CODE_MAX = 40;
