import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { comments } from './schema-comments.ts';
import { manuscripts } from './schema-manuscripts.ts';
import { users } from './schema-accounts.ts';

// Threads on margin comments and the export of all feedback (issue 16).

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
const stamp = (name: string) => timestamp(name, { withTimezone: true });

/** One reaction of one user on a comment or reply; the key makes adding it twice a no-op. */
export const commentReactions = pgTable(
  'comment_reactions',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A key of REACTIONS (common/src/constants.ts). */
    reaction: text('reaction').notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.commentId, table.userId, table.reaction] }),
    index('comment_reactions_user_idx').on(table.userId),
  ],
);

/**
 * A reply a comment's writer has not been mailed about yet: the hourly digest gathers them
 * (one mail per reader per hour at most) and marks them sent.
 */
export const replyNotifications = pgTable(
  'reply_notifications',
  {
    id: serial('id').primaryKey(),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    replyId: integer('reply_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    sentAt: stamp('sent_at'),
  },
  (table) => [
    index('reply_notifications_pending_idx')
      .on(table.recipientId, table.createdAt)
      .where(sql`${table.sentAt} is null`),
  ],
);

/** A DOCX export of a manuscript's feedback, built by a job; the file is kept a day. */
export const feedbackExports = pgTable(
  'feedback_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    requestedById: integer('requested_by_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    format: text('format', { enum: ['docx'] })
      .notNull()
      .default('docx'),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    /** 0…1, written by the job as it goes. */
    progress: real('progress').notNull().default(0),
    fileName: text('file_name'),
    file: bytea('file'),
    error: text('error'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    finishedAt: stamp('finished_at'),
  },
  (table) => [index('feedback_exports_manuscript_idx').on(table.manuscriptId, table.createdAt)],
);
