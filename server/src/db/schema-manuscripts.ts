import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { genres, users } from './schema-accounts.ts';

// Kept in step with common/src/constants.ts (the schema file stays free of app imports).
const VISIBILITIES = ['private', 'restricted', 'logged_in', 'public'] as const;
const MANUSCRIPT_CATEGORIES = ['fiction', 'non-fiction', 'poetry'] as const;
const SOURCE_FORMATS = ['docx', 'odt', 'rtf', 'txt', 'html', 'md'] as const;
const CONVERSION_STATUSES = [
  'PENDING',
  'PROGRESS',
  'SUCCESS',
  'OVER_WORD_LIMIT',
  'FAILURE',
] as const;

const timestamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Uploaded binary files (profile pictures, manuscript images, originals). */
export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Stored uncompressed (migration 0004): mostly zip, PNG and JPEG already. */
    data: bytea('data').notNull(),
    /** Set for a manuscript's images and uploaded originals: read as the manuscript allows. */
    manuscriptId: integer('manuscript_id').references((): AnyPgColumn => manuscripts.id, {
      onDelete: 'cascade',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('media_manuscript_idx').on(table.manuscriptId)],
);

/** A manuscript (SPEC §3). Deleting archives it (archived_at); rows are kept. */
export const manuscripts = pgTable(
  'manuscripts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    /** Who may read: the invite type of SPEC §4. */
    visibility: text('visibility', { enum: VISIBILITIES }).notNull().default('private'),
    privateComments: boolean('private_comments').notNull().default(false),
    nsfw: boolean('nsfw').notNull().default(false),
    category: text('category', { enum: MANUSCRIPT_CATEGORIES }).notNull().default('fiction'),
    approvalsRequired: boolean('approvals_required').notNull().default(false),
    /** True while a conversion is running (first upload or new draft). */
    inking: boolean('inking').notNull().default(true),
    moderationFlag: boolean('moderation_flag').notNull().default(false),
    moderationReason: text('moderation_reason'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** The draft shown in the reader; null until the first conversion succeeds. */
    currentVersionId: integer('current_version_id').references(
      (): AnyPgColumn => manuscriptVersions.id,
      { onDelete: 'set null' },
    ),
    /** Words of the current version (the word limit sums these). */
    words: integer('words').notNull().default(0),
    ...timestamps(),
  },
  (table) => [index('manuscripts_user_idx').on(table.userId)],
);

export const manuscriptGenres = pgTable(
  'manuscript_genres',
  {
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    genreId: integer('genre_id')
      .notNull()
      .references(() => genres.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.manuscriptId, table.genreId] }),
    index('manuscript_genres_genre_idx').on(table.genreId),
  ],
);

/** Every converted draft of a manuscript, kept (comments are re-anchored onto new drafts). */
export const manuscriptVersions = pgTable(
  'manuscript_versions',
  {
    id: serial('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** 1 for the first upload, then 2, 3 … per manuscript. */
    number: integer('number').notNull(),
    /** The uploaded file as it came (media row with this manuscript's id). */
    originalMediaId: text('original_media_id').references(() => media.id, {
      onDelete: 'set null',
    }),
    sourceFormat: text('source_format', { enum: SOURCE_FORMATS }).notNull(),
    fileName: text('file_name').notNull(),
    /**
     * The normalised, allow-listed HTML with stable block ids; stored uncompressed (migration
     * 0004), which is faster to write on the embedded database.
     */
    html: text('html').notNull(),
    toc: jsonb('toc').$type<Array<{ id: string; level: 1 | 2 | 3; text: string }>>().notNull(),
    words: integer('words').notNull(),
    /** What the author was told about the conversion (issue 10 item 8); null before migration 0005. */
    report: jsonb('report').$type<{
      words: number;
      chapters: number;
      images: number;
      footnotes: number;
      tables: number;
      formulas: number;
      notes: string[];
    }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('manuscript_versions_number_unique').on(table.manuscriptId, table.number),
  ],
);

/** One conversion of an uploaded file; its id is the result_id the client polls. */
export const documentConversions = pgTable(
  'document_conversions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null once the manuscript of a failed first upload is removed. */
    manuscriptId: integer('manuscript_id').references(() => manuscripts.id, {
      onDelete: 'set null',
    }),
    /** new: the first upload of a manuscript; draft: a new draft of an existing one. */
    kind: text('kind', { enum: ['new', 'draft'] }).notNull(),
    status: text('status', { enum: CONVERSION_STATUSES }).notNull().default('PENDING'),
    /** What the author reads about this conversion (why it failed, …). */
    message: text('message'),
    originalMediaId: text('original_media_id').references(() => media.id, {
      onDelete: 'set null',
    }),
    sourceFormat: text('source_format', { enum: SOURCE_FORMATS }).notNull(),
    fileName: text('file_name').notNull(),
    /** The author gave no title: take the document's own. */
    useDocumentTitle: boolean('use_document_title').notNull().default(false),
    /** The pg-boss job that runs it. */
    jobId: text('job_id'),
    attempts: integer('attempts').notNull().default(0),
    versionId: integer('version_id').references(() => manuscriptVersions.id, {
      onDelete: 'set null',
    }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps(),
  },
  (table) => [
    index('document_conversions_user_idx').on(table.userId),
    index('document_conversions_manuscript_idx').on(table.manuscriptId),
    index('document_conversions_status_idx').on(table.status),
  ],
);
