// Reads (bookmarks) and reading progress: the manuscripts a reader keeps, and how far they got.
import { z } from 'zod';
import { databaseId } from './fields.ts';
import { LIST_MAX_PER_PAGE } from '../constants.ts';
import { listPageFields, listQuery } from './list.ts';
import { manuscript } from './manuscript.ts';

/** How far the reader got (the furthest point reached). */
export const readingProgress = z.object({
  /** The furthest block (paragraph) index reached, or null before any progress. */
  block_idx: z.number().nullable(),
  /** The furthest percentage (0–100) of the text reached, or null. */
  percent: z.number().nullable(),
  /** When progress last moved (ISO-8601), or null. */
  updated: z.string().nullable(),
});
export type ReadingProgress = z.infer<typeof readingProgress>;

/** A read: a bookmarked manuscript with the reader's progress. */
export const bookmark = z.object({
  /** The bookmark's id. */
  id: z.number(),
  /** The bookmarked manuscript's id (the key of the bookmark calls). */
  manuscript_id: z.number(),
  /** ISO-8601 time it was added. */
  created: z.string(),
  /** How far the reader got. */
  progress: readingProgress,
  /** The manuscript as a card (SPEC §3). */
  manuscript,
});
export type Bookmark = z.infer<typeof bookmark>;

/** POST /bookmark/{id}, POST /invite/{id}/accept, POST /bookmark/{id}/progress. */
export const bookmarkResponse = z.object({ bookmark });
export type BookmarkResponse = z.infer<typeof bookmarkResponse>;

/** GET /user/current/bookmarks (JSON) query: the list contract; `q` looks in titles. */
export const bookmarkListQuery = listQuery({
  sort: ['created', 'title', 'progress'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  defaultPerPage: LIST_MAX_PER_PAGE,
});
export type BookmarkListQuery = z.output<typeof bookmarkListQuery>;

/** GET /user/current/bookmarks (JSON): the caller's reads they may still open, newest first. */
export const bookmarkListResponse = z.object({ bookmarks: z.array(bookmark), ...listPageFields });
export type BookmarkListResponse = z.infer<typeof bookmarkListResponse>;

/** POST /bookmark/{id}/progress: where the reader is; the furthest point is kept. */
export const readingProgressBody = z.object({
  /** The index of the block (paragraph) in view, 0-based. */
  block_idx: z.coerce.number().int().min(0).max(10_000_000),
  /** How much of the text is behind the reader, 0–100. */
  percent: z.coerce.number().min(0).max(100),
});
export type ReadingProgressBody = z.infer<typeof readingProgressBody>;

export const bookmarkParams = z.object({ manuscript_id: databaseId });
