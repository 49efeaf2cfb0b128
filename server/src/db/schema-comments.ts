import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { manuscripts, manuscriptVersions } from './schema-manuscripts.ts';
import { users } from './schema-accounts.ts';

// Kept in step with common/src/schemas/comments-reports.ts (the schema file stays free of
// app imports).
const REPORT_MODELS = ['comment', 'manuscript'] as const;
const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const stamp = (name: string) => timestamp(name, { withTimezone: true });
const timestamps = () => ({
  createdAt: stamp('created_at').notNull().defaultNow(),
  updatedAt: stamp('updated_at').notNull().defaultNow(),
  /** Any change (edits, votes, re-anchoring, deletion): the catch-up cursor (?since=). */
  changedAt: stamp('changed_at').notNull().defaultNow(),
  /** Soft delete: the row stays as a tombstone for clients catching up. */
  deletedAt: stamp('deleted_at'),
});

/**
 * A highlighted passage (SPEC §3 highlight / selection): the SPEC range, and robust anchors —
 * the block it starts in, its position in the document text, and the quote with context — so
 * it can be placed again in a new draft (range → position → fuzzy quote).
 */
export const highlights = pgTable(
  'highlights',
  {
    /** The selection_id, chosen by the client. */
    id: text('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** The draft the anchor refers to (the last one it was placed in). */
    versionId: integer('version_id').references(() => manuscriptVersions.id, {
      onDelete: 'set null',
    }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startPath: integer('start_path').array().notNull(),
    endPath: integer('end_path').array().notNull(),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    /** As the reader selected it (kept when the passage is later edited). */
    selectedText: text('selected_text').notNull(),
    blockId: text('block_id'),
    /** Start offset inside that block's text. */
    blockOffset: integer('block_offset'),
    /** Start and end (exclusive) in the document text of versionId. */
    textStart: integer('text_start').notNull(),
    textEnd: integer('text_end').notNull(),
    quoteExact: text('quote_exact').notNull(),
    quotePrefix: text('quote_prefix').notNull(),
    quoteSuffix: text('quote_suffix').notNull(),
    colour: smallint('colour').notNull().default(0),
    /** Could not be placed in the current draft; kept and listed with its quote. */
    orphaned: boolean('orphaned').notNull().default(false),
    ...timestamps(),
  },
  (table) => [
    index('highlights_manuscript_position_idx').on(table.manuscriptId, table.textStart),
    index('highlights_manuscript_changed_idx').on(table.manuscriptId, table.changedAt),
  ],
);

/** A margin comment on a highlight (SPEC §3 comment). */
export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    selectionId: text('selection_id')
      .notNull()
      .references(() => highlights.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** Sum of the votes, kept in step with comment_votes in the same transaction. */
    rank: integer('rank').notNull().default(0),
    moderationFlag: boolean('moderation_flag').notNull().default(false),
    moderationReason: text('moderation_reason'),
    /**
     * Set on a reply (issue 16): the comment it answers, on the same highlight. Replies are
     * comments so that votes, reports and moderation work on them as they are.
     */
    parentId: integer('parent_id').references((): AnyPgColumn => comments.id, {
      onDelete: 'cascade',
    }),
    /** The owner resolved this comment's thread (null: open). */
    resolvedAt: stamp('resolved_at'),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    index('comments_parent_idx').on(table.parentId),
    index('comments_manuscript_changed_idx').on(table.manuscriptId, table.changedAt),
    index('comments_selection_idx').on(table.selectionId),
    index('comments_author_idx').on(table.authorId),
  ],
);

/** One vote per user and comment (+1 up, -1 down), changeable. */
export const commentVotes = pgTable(
  'comment_votes',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.commentId, table.userId] }),
    index('comment_votes_user_idx').on(table.userId),
    check('comment_votes_value_check', sql`${table.value} in (-1, 1)`),
  ],
);

/** Why something can be reported (the list the report modal loads). */
export const reportReasons = pgTable('report_reasons', {
  id: serial('id').primaryKey(),
  reason: text('reason').notNull().unique(),
  description: text('description'),
  /** The reporter must describe it (e.g. "Something else"). */
  descriptionRequired: boolean('description_required').notNull().default(false),
  position: integer('position').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: stamp('created_at').notNull().defaultNow(),
});

/** A report for moderators (SPEC §3 report); one per reporter and element, updated on repeat. */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    modelName: text('model_name', { enum: REPORT_MODELS }).notNull(),
    reportElementId: integer('report_element_id').notNull(),
    reasonId: integer('reason_id')
      .notNull()
      .references(() => reportReasons.id, { onDelete: 'restrict' }),
    reasonDescription: text('reason_description').notNull().default(''),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    resolvedAt: stamp('resolved_at'),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('reports_reporter_element_unique').on(
      table.reporterId,
      table.modelName,
      table.reportElementId,
    ),
    index('reports_status_idx').on(table.status, table.createdAt),
    index('reports_element_idx').on(table.modelName, table.reportElementId),
  ],
);

/**
 * Payloads of @socket.io/postgres-adapter over NOTIFY's 8000-byte limit (the adapter's own
 * table; its shape is the adapter's, see its README).
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).unique(),
  createdAt: stamp('created_at').defaultNow(),
  payload: bytea('payload'),
});
