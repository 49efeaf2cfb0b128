import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './schema-accounts.ts';
import { manuscripts } from './schema-manuscripts.ts';

// Kept in step with common/src/payments-constants.ts (the schema file stays free of app imports).
const PRICE_INTERVALS = ['month', 'year'] as const;
const PROVIDERS = ['local', 'stripe', 'gift'] as const;
const TIP_TYPES = ['manuscript', 'author'] as const;

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** The tiers of the pricing page (SPEC §3 Product); Stripe's products mirror them. */
export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  /** A stable name for code and seeds: "free", "writer", "studio". */
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** The marketing features listed on its card, in order. */
  marketingFeatures: jsonb('marketing_features').$type<string[]>().notNull().default([]),
  /** Words an author on this tier may have across live manuscripts. */
  wordLimit: integer('word_limit').notNull(),
  active: boolean('active').notNull().default(true),
  /** Set once the product exists in Stripe (catalogue sync). */
  stripeProductId: text('stripe_product_id').unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A product's price for an interval, in minor units. */
export const prices = pgTable(
  'prices',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    interval: text('interval', { enum: PRICE_INTERVALS }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** The id clients send as priceId ("writer_year"); the local provider's price id too. */
    lookupKey: text('lookup_key').notNull().unique(),
    /** Set once the price exists in Stripe (catalogue sync). */
    stripePriceId: text('stripe_price_id').unique(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [index('prices_product_idx').on(table.productId)],
);

/**
 * A user's subscription as last read from its provider (sync.ts upserts it by the provider's
 * id; nothing else writes it). Gift subscriptions are ours alone (provider "gift").
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    priceId: integer('price_id').references(() => prices.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
    providerCustomerId: text('provider_customer_id'),
    status: text('status').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    interval: text('interval', { enum: PRICE_INTERVALS }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('subscriptions_user_idx').on(table.userId, table.status)],
);

/** A one-off tip, written once its payment is confirmed (by the provider's session id). */
export const tips = pgTable(
  'tips',
  {
    id: serial('id').primaryKey(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    providerSessionId: text('provider_session_id').notNull().unique(),
    payerId: integer('payer_id').references(() => users.id, { onDelete: 'set null' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    manuscriptId: integer('manuscript_id').references(() => manuscripts.id, {
      onDelete: 'set null',
    }),
    tipType: text('tip_type', { enum: TIP_TYPES }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    createdAt: createdAt(),
  },
  (table) => [index('tips_author_idx').on(table.authorId, table.createdAt)],
);

/** Every provider event handled, by its id: a replay finds its row and changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider', { enum: PROVIDERS }).notNull(),
  type: text('type').notNull(),
  /** The id of the object the event is about (session, subscription). */
  objectId: text('object_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** People who asked to hear when plans open (POST /products/). */
export const waitingList = pgTable(
  'waiting_list',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('waiting_list_email_unique').on(table.email)],
);

/** Coupons of the local provider (with Stripe, its promotion codes do this). */
export const coupons = pgTable('coupons', {
  id: serial('id').primaryKey(),
  /** Stored upper-case; typed in any case. */
  code: text('code').notNull().unique(),
  /** Exactly one of percentOff (1–100) and amountOff (minor units) is set. */
  percentOff: integer('percent_off'),
  amountOff: integer('amount_off'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  maxRedemptions: integer('max_redemptions'),
  timesRedeemed: integer('times_redeemed').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

/** A plan bought for someone else: paid once, its code mailed to them, redeemed once. */
export const gifts = pgTable(
  'gifts',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    purchaserId: integer('purchaser_id').references(() => users.id, { onDelete: 'set null' }),
    recipientEmail: text('recipient_email').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    interval: text('interval', { enum: PRICE_INTERVALS }).notNull(),
    amount: integer('amount').notNull(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    providerSessionId: text('provider_session_id').notNull().unique(),
    redeemedById: integer('redeemed_by_id').references(() => users.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('gifts_recipient_idx').on(table.recipientEmail)],
);

/**
 * The local provider's own records (payments/local-provider.ts): checkout sessions and
 * subscriptions in Stripe's shape, so that the sync code reads them as it reads Stripe's.
 */
export const localPaymentObjects = pgTable('local_payment_objects', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['checkout.session', 'subscription'] }).notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
