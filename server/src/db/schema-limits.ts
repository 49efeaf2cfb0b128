import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema-accounts.ts';

/**
 * Fixed-window counters of the rate limiters (lib/rate-limit.ts), shared by every process on
 * the database so that N web processes still allow one limit, not N.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** Which limiter: "login-ip", "signup-ip", "comment-writes"… */
    bucket: text('bucket').notNull(),
    /** Whose hits: an IP address, an account, a user id. */
    key: text('key').notNull(),
    count: integer('count').notNull(),
    /** When this window ends; a hit after it starts a new window (and the sweep deletes it). */
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.bucket, table.key] }),
    index('rate_limits_reset_idx').on(table.resetAt),
  ],
);

/**
 * Failed log-ins per IP, account or known device (auth/throttle.ts): each failure past the
 * free ones makes the next attempt wait longer, instead of locking the account.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    /** "ip:1.2.3.4", "account:a@b.c" or "device:<sha-256 of the device token>". */
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    /** No attempt for this key before this time. */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** The failures are forgotten after this time (and the sweep deletes the row). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('login_throttles_expires_idx').on(table.expiresAt)],
);

/** Browsers that logged in to an account successfully (the device cookie keeps the token). */
export const knownDevices = pgTable(
  'known_devices',
  {
    /** SHA-256 of the cookie's token. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('known_devices_user_idx').on(table.userId)],
);

/** One-time log-in links mailed to an owner who is throttled (SHA-256 stored). */
export const loginLinks = pgTable(
  'login_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    next: text('next'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('login_links_user_idx').on(table.userId)],
);
