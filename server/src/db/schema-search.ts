import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { manuscripts } from './schema-manuscripts.ts';

/** PostgreSQL's full-text document type (written by the triggers of migration 0005 only). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * What Discover searches: one row per manuscript, kept by database triggers in the same
 * transaction as every change that alters it (title, summary, visibility, flags, a new draft,
 * genres, the author's name), so no writer has to remember it. Never edited by the server.
 */
export const manuscriptSearch = pgTable(
  'manuscript_search',
  {
    manuscriptId: integer('manuscript_id')
      .primaryKey()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** Weighted: A title, B summary and author, C genres, D the opening of the text. */
    document: tsvector('document').notNull(),
    /**
     * The document without the opening (weights A to C: title, summary, author, genres): what
     * Discover ranks by. Small and kept in the row, where the whole document is read from the
     * TOAST table; ranking a thousand candidates by it costs no document reads.
     */
    head: tsvector('head')
      .notNull()
      .generatedAlwaysAs(sql`ts_filter(document, '{a,b,c}')`),
    /** Lower-cased, unaccented title, for typo tolerance (pg_trgm). */
    titleKey: text('title_key').notNull(),
    /** Lower-cased, unaccented author display name and handle. */
    authorKey: text('author_key').notNull(),
    /** The first ~2,000 words of the current draft as plain text (for the snippet). */
    opening: text('opening').notNull().default(''),
    /** Searchable at all: converted, not archived (visibility and flags are checked apart). */
    listed: boolean('listed').notNull(),
    visibility: text('visibility').notNull(),
    category: text('category').notNull(),
    nsfw: boolean('nsfw').notNull(),
    flagged: boolean('flagged').notNull(),
    ownerId: integer('owner_id').notNull(),
    genreIds: integer('genre_ids').array().notNull().default([]),
    readCount: integer('read_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('manuscript_search_document_idx').using('gin', table.document),
    index('manuscript_search_title_trgm_idx').using('gin', table.titleKey.op('gin_trgm_ops')),
    // The title's words alone (the A part of the document): a broad word's title matches are
    // found first however many texts hold it (Discover caps the matches it ranks).
    index('manuscript_search_title_words_idx').using(
      'gin',
      sql`to_tsvector('english'::regconfig, ${table.titleKey})`,
    ),
    index('manuscript_search_author_trgm_idx').using('gin', table.authorKey.op('gin_trgm_ops')),
    index('manuscript_search_genres_idx').using('gin', table.genreIds),
    index('manuscript_search_created_idx').on(table.createdAt),
  ],
);

/**
 * Every word of a title or an author's name (folded), for correcting misspelt search words
 * ("dargon" → "dragon": transposed letters defeat trigrams, not an edit distance). Written by
 * the search triggers; words are never removed (a stale one only finds nothing).
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (table) => [
  index('search_words_trgm_idx').using('gin', table.word.op('gin_trgm_ops')),
]);
