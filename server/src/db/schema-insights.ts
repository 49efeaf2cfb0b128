import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { bookmarks } from './schema-access.ts';
import { manuscripts } from './schema-manuscripts.ts';
import { users } from './schema-accounts.ts';

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Reading time per reader and chapter (issue 15): aggregates, never a log of events. Hangs off
 * the read (bookmark), so a reader who leaves a manuscript takes their progress with them.
 */
export const readingChapters = pgTable(
  'reading_chapters',
  {
    bookmarkId: integer('bookmark_id')
      .notNull()
      .references(() => bookmarks.id, { onDelete: 'cascade' }),
    /** The chapter: its heading's block id (kept by a new draft whose heading is unchanged). */
    chapterId: text('chapter_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** Active, visible seconds on blocks seen for the first time (re-reading adds nothing). */
    seconds: doublePrecision('seconds').notNull().default(0),
    /** The block ids of this chapter the reader has had on screen. */
    seenBlockIds: text('seen_block_ids').array().notNull(),
    /** How many (the Insights query reads this, not the array). */
    blocksSeen: integer('blocks_seen').notNull().default(0),
    firstSeenAt: stamp('first_seen_at').notNull().defaultNow(),
    lastSeenAt: stamp('last_seen_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.bookmarkId, table.chapterId] }),
    index('reading_chapters_manuscript_idx').on(table.manuscriptId),
  ],
);

/**
 * Where a read stands: last active, finished (the document-complete route), stopped ("I'm
 * stopping here", with a reason) and the last reminder. One row per read, gone with it.
 */
export const readingStates = pgTable(
  'reading_states',
  {
    bookmarkId: integer('bookmark_id')
      .primaryKey()
      .references(() => bookmarks.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    lastActiveAt: stamp('last_active_at'),
    finishedAt: stamp('finished_at'),
    stoppedAt: stamp('stopped_at'),
    stopReason: text('stop_reason'),
    stopText: text('stop_text'),
    stopChapterId: text('stop_chapter_id'),
    lastRemindedAt: stamp('last_reminded_at'),
  },
  (table) => [index('reading_states_manuscript_idx').on(table.manuscriptId)],
);

/** The author's reminder setting per manuscript; no row: the default (REMINDER_DAYS_DEFAULT). */
export const manuscriptReminderSettings = pgTable('manuscript_reminder_settings', {
  manuscriptId: integer('manuscript_id')
    .primaryKey()
    .references(() => manuscripts.id, { onDelete: 'cascade' }),
  /** Idle days before a reminder; null: reminders off. */
  reminderDays: integer('reminder_days'),
  updatedAt: stamp('updated_at').notNull().defaultNow(),
});

/** One-click unsubscribe links of reminder mails (SHA-256 stored): no login, one use per purpose. */
export const unsubscribeTokens = pgTable(
  'unsubscribe_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The notification key it turns off ("reminders"). */
    purpose: text('purpose').notNull(),
    usedAt: stamp('used_at'),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (table) => [index('unsubscribe_tokens_user_idx').on(table.userId)],
);
