import { z } from 'zod';
import { CATEGORIES, DISCOVER_MAX_PAGE, DISCOVER_QUERY_MAX } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { databaseId } from './fields.ts';
import { manuscript } from './manuscript.ts';

/** The orders Discover offers; relevance needs a search text (else newest is used). */
export const DISCOVER_SORTS = ['relevance', 'newest', 'most_read', 'most_commented'] as const;
export type DiscoverSort = (typeof DISCOVER_SORTS)[number];

/** "1,2,3" (a URL), [1, 2, 3] or ["1", "2"] (JSON) → a list of genre ids. */
const genreIdList = z.preprocess((value) => {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return value.split(',').filter((part) => part !== '');
  return value;
}, z.array(databaseId).max(50));

/** The search of SPEC §7 (`POST /discover/` {q, fs, genre_ids, page}), plus the order. */
export const discoverRequest = z.object({
  /** What to look for: words, "a quoted phrase", OR, -excluded. Empty lists everything. */
  q: z
    .string()
    .max(DISCOVER_QUERY_MAX, MESSAGES.discoverQueryTooLong)
    .optional()
    .transform((value) => value?.trim() ?? ''),
  /** The category filter: fiction, non-fiction or poetry; empty for all. */
  fs: z
    .union([z.enum(CATEGORIES), z.literal('')])
    .optional()
    .transform((value) => value ?? ''),
  /** Genres to filter by (any of them). */
  genre_ids: genreIdList.optional().transform((value) => value ?? []),
  /** 1-based page; a page past the end answers the last page. */
  page: z.coerce
    .number()
    .int()
    .min(1, MESSAGES.discoverBadPage)
    .max(DISCOVER_MAX_PAGE, MESSAGES.discoverBadPage)
    .optional()
    .transform((value) => value ?? 1),
  /** relevance (default with a search text), newest, most_read, most_commented. */
  sort: z
    .enum(DISCOVER_SORTS)
    .optional()
    .transform((value) => value ?? 'relevance'),
});
export type DiscoverRequest = z.output<typeof discoverRequest>;

/** A piece of a result's snippet; `match` marks the words that matched the search. */
export const snippetPart = z.object({ text: z.string(), match: z.boolean() });

/** A result: the manuscript's card, with where the words matched. */
export const discoverItem = manuscript.extend({
  /** Text around the matches (empty without a search text). */
  snippet: z.array(snippetPart),
  /** Readers who have it in their reads. */
  read_count: z.number(),
});
export type DiscoverItem = z.infer<typeof discoverItem>;

/** SPEC §7's answer, {page: {items, iter_pages, first_page, last_page, current}}, plus more. */
export const discoverResponse = z.object({
  page: z.object({
    items: z.array(discoverItem),
    /** The pager's window: page numbers, null where pages are left out. */
    iter_pages: z.array(z.number().nullable()),
    first_page: z.number(),
    last_page: z.number(),
    current: z.number(),
  }),
  /** Results in all pages (at most DISCOVER_RESULT_CAP for a search with words, see below). */
  total: z.number(),
  /**
   * True when a search's words matched more than DISCOVER_RESULT_CAP manuscripts: only that
   * many are ranked and paged, and total and facets count those ("1,000+").
   */
  total_capped: z.boolean().optional(),
  /** Results per category and per genre for this search text (before those filters). */
  facets: z.object({
    categories: z.array(z.object({ category: z.enum(CATEGORIES), count: z.number() })),
    genres: z.array(z.object({ id: z.number(), count: z.number() })),
  }),
  /** The search as the server understood it (to put back into the URL and form). */
  query: z.object({
    q: z.string(),
    fs: z.string(),
    genre_ids: z.array(z.number()),
    page: z.number(),
    sort: z.enum(DISCOVER_SORTS),
  }),
});
export type DiscoverResponse = z.infer<typeof discoverResponse>;

/** GET /profile/get/{user_id}/manuscripts: the author's manuscripts the caller may open. */
export const publicManuscriptsResponse = z.object({ manuscripts: z.array(manuscript) });
export type PublicManuscriptsResponse = z.infer<typeof publicManuscriptsResponse>;
