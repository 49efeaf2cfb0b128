// Accounts and what hangs off them: users, sessions, genres, preferences, invite codes, mail.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Accounts and the public profile of SPEC §3 (user / author). */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    role: text('role', { enum: ['user', 'moderator', 'admin'] })
      .notNull()
      .default('user'),
    handle: text('handle'),
    displayName: text('display_name').notNull(),
    about: text('about'),
    pronouns: text('pronouns'),
    pictureMediaId: text('picture_media_id'),
    bluesky: text('bluesky'),
    discord: text('discord'),
    instagram: text('instagram'),
    facebook: text('facebook'),
    threads: text('threads'),
    mastodon: text('mastodon'),
    twitter: text('twitter'),
    tiktok: text('tiktok'),
    youtube: text('youtube'),
    website: text('website'),
    certified18At: timestamp('certified_18_at', { withTimezone: true }),
    showMature: boolean('show_mature').notNull().default(false),
    signupCompletedAt: timestamp('signup_completed_at', { withTimezone: true }),
    /** Set by a moderator (modules/moderation): no log-in, no sessions, hidden manuscripts. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_handle_unique').on(sql`lower(${table.handle})`),
  ],
);

/** Server-side sessions; the cookie carries the token, the row keeps its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** One-time e-mail verification tokens (SHA-256 stored). */
export const emailVerifications = pgTable('email_verifications', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  next: text('next'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const genreCategories = pgTable('genre_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  position: integer('position').notNull().default(0),
});

export const genres = pgTable(
  'genres',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => genreCategories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (table) => [uniqueIndex('genres_category_name_unique').on(table.categoryId, table.name)],
);

/** A user's genre preferences (interests). */
export const userGenres = pgTable(
  'user_genres',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    genreId: integer('genre_id')
      .notNull()
      .references(() => genres.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.genreId] })],
);

/** Preference key → channel list (SPEC §3); a missing row means every key on e-mail. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  preferences: jsonb('preferences').$type<Record<string, string[]>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Platform invite codes, limited per user. */
export const platformInviteCodes = pgTable(
  'platform_invite_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'cascade' }),
    redeemedById: integer('redeemed_by_id').references(() => users.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('platform_invite_codes_creator_idx').on(table.createdById)],
);

/** Every e-mail we send, kept; the development mailbox reads it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** One-click unsubscribe URL (RFC 8058 List-Unsubscribe headers), if the mail has one. */
    listUnsubscribe: text('list_unsubscribe'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'kept'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    // The unsent few among every mail ever sent: what /metrics counts at each scrape.
    index('mail_outbox_pending_idx')
      .on(table.id)
      .where(sql`${table.status} = 'pending'`),
  ],
);

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
});
