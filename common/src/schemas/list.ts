// The list contract (issue 9 item 3): one query shape and one answer shape for every list
// (dashboard, invites, reads, survey answers, comments; later admin and Discover). The server
// turns the query into SQL with whitelisted columns only (server/src/lib/list-query.ts).
import { z } from 'zod';
import {
  LIST_DEFAULT_PER_PAGE,
  LIST_MAX_PAGE,
  LIST_MAX_PER_PAGE,
  LIST_Q_MAX_LENGTH,
} from '../constants.ts';

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

/** What one list allows: its sort fields and filters (nothing else passes), and its defaults. */
export interface ListSpec<Sort extends string, Filters extends z.ZodRawShape> {
  /** The fields it may be sorted by. */
  sort: readonly [Sort, ...Sort[]];
  defaultSort: NoInfer<Sort>;
  defaultOrder: ListOrder;
  /** Filter name → schema of its value (query strings: coerce numbers and booleans). */
  filters?: Filters;
  defaultPerPage?: number;
  maxPerPage?: number;
}

/** A query string boolean: "true"/"1" and "false"/"0". */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'], { error: 'Use true or false.' })
  .transform((value) => value === 'true' || value === '1');

/**
 * The query schema of one list: page, per_page, sort, order, q and its filters. Strict: any
 * other field is a 400 naming that field, so a typo never silently returns everything.
 */
export function listQuery<
  Sort extends string,
  Filters extends z.ZodRawShape = Record<never, never>,
>(spec: ListSpec<Sort, Filters>) {
  const maxPerPage = spec.maxPerPage ?? LIST_MAX_PER_PAGE;
  const known = z.object({
    /** 1-based; past the last page the last page is answered. */
    page: z.coerce
      .number({ error: 'Enter a page number.' })
      .int('Enter a whole page number.')
      .min(1, 'Pages start at 1.')
      .max(LIST_MAX_PAGE, `Pages go up to ${LIST_MAX_PAGE}.`)
      .default(1),
    /** Items per page. */
    per_page: z.coerce
      .number({ error: 'Enter how many items a page shows.' })
      .int('Enter a whole number of items.')
      .min(1, 'Show at least 1 item a page.')
      .max(maxPerPage, `Show at most ${maxPerPage} items a page.`)
      .default(spec.defaultPerPage ?? Math.min(LIST_DEFAULT_PER_PAGE, maxPerPage)),
    sort: z
      .enum(spec.sort as unknown as [Sort, ...Sort[]], {
        error: `Sort by one of: ${spec.sort.join(', ')}.`,
      })
      .default(spec.defaultSort as never),
    order: z.enum(LIST_ORDERS, { error: 'Order is asc or desc.' }).default(spec.defaultOrder),
    /** Search text (matched as plain text, never as a pattern). */
    q: z
      .string()
      .trim()
      .max(LIST_Q_MAX_LENGTH, `Search with at most ${LIST_Q_MAX_LENGTH} characters.`)
      .optional(),
    ...((spec.filters ?? {}) as Filters),
  });
  const fields = new Set(Object.keys(known.shape));
  // Each unknown field gets its own field error (zod's strict mode reports them together).
  return z.preprocess((input, context) => {
    if (typeof input !== 'object' || input === null) return input;
    for (const field of Object.keys(input)) {
      if (fields.has(field)) continue;
      context.addIssue({ code: 'custom', path: [field], message: UNKNOWN_LIST_FIELD, input });
    }
    return input;
  }, known);
}

export const UNKNOWN_LIST_FIELD = 'This list cannot be sorted or filtered by this field.';

/** A list query after parsing: what the server helper reads. */
export interface ListQuery<Sort extends string = string> {
  page: number;
  per_page: number;
  sort: Sort;
  order: ListOrder;
  q?: string | undefined;
}

/** What a pager needs. */
export const pageInfo = z.object({
  /** The page answered (the last page when a later one was asked for). */
  current: z.number().int(),
  per_page: z.number().int(),
  first_page: z.literal(1),
  /** 1 for an empty list. */
  last_page: z.number().int(),
  /** The page numbers to show, null where numbers are left out (1 … 4 5 6 … 20). */
  iter_pages: z.array(z.number().int().nullable()),
  /** The previous and next page numbers, null at either end. */
  prev: z.number().int().nullable(),
  next: z.number().int().nullable(),
});
export type PageInfo = z.infer<typeof pageInfo>;

/** The fields every list answer carries beside its items. */
export const listPageFields = {
  /** How many items match, over all pages. */
  total: z.number().int(),
  page: pageInfo,
};

/** The answer of a list: {items, total, page}. */
export function listResponse<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), ...listPageFields });
}

/** The page info of a list of `total` items at `page` (clamped to the last page). */
export function pageInfoFor(total: number, page: number, perPage: number): PageInfo {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), lastPage);
  return {
    current,
    per_page: perPage,
    first_page: 1,
    last_page: lastPage,
    iter_pages: iterPages(current, lastPage),
    prev: current > 1 ? current - 1 : null,
    next: current < lastPage ? current + 1 : null,
  };
}

/** First and last pages, and two on each side of the current one; null for each gap. */
function iterPages(current: number, lastPage: number): Array<number | null> {
  const near = [1, lastPage];
  for (let page = current - 2; page <= current + 2; page++) near.push(page);
  const shown = [...new Set(near)]
    .filter((page) => page >= 1 && page <= lastPage)
    .sort((a, b) => a - b);
  const pages: Array<number | null> = [];
  for (const page of shown) {
    const previous = pages.at(-1);
    if (typeof previous === 'number' && page > previous + 1) pages.push(null);
    pages.push(page);
  }
  return pages;
}

// The cursor form of the contract: for a feed a client keeps in step rather than pages through
// (the reader's comments and highlights of one manuscript: all of them in document order, then
// only what changed). Pages would not fit there: the reader needs every item at once to paint
// the margins, and a change must reach it as a delta, deletions included. A feed answers:
//   - without `since`: every live item of each kind, in the feed's own order;
//   - with `since` (the `cursor` of an earlier answer): the items changed after it, and under
//     `deleted` the ids removed since (tombstones), so the client drops them;
//   - always a `cursor` to pass as `since` next time. Repeats are harmless (clients merge by id);
//     a missed change is not, so the server may step the cursor back a little.
// It keeps the item arrays under their own names (API.md's fields), one per kind.

/** The query of a feed: the cursor of an earlier answer, or nothing for everything. */
export const feedQuery = z.object({
  /** Only what changed after this point (the `cursor` of an earlier answer), with tombstones. */
  since: z.iso.datetime({ offset: true }).optional(),
});
export type FeedQuery = z.infer<typeof feedQuery>;

/** One kind of item in a feed: its schema and the schema of its id (for tombstones). */
interface FeedKind {
  item: z.ZodType;
  id: z.ZodType;
}
type FeedShape<Kinds extends Record<string, FeedKind>> = {
  [Kind in keyof Kinds]: z.ZodArray<Kinds[Kind]['item']>;
} & {
  deleted: z.ZodObject<{ [Kind in keyof Kinds]: z.ZodArray<Kinds[Kind]['id']> }>;
  cursor: z.ZodString;
};

/** The answer of a feed: an array per kind, the ids `deleted` since `since`, and the `cursor`. */
export function feedResponse<Kinds extends Record<string, FeedKind>>(
  kinds: Kinds,
): z.ZodObject<FeedShape<Kinds>> {
  const items: Record<string, z.ZodType> = {};
  const deleted: Record<string, z.ZodType> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    items[name] = z.array(kind.item);
    deleted[name] = z.array(kind.id);
  }
  return z.object({
    ...items,
    /** Removed since `since` (empty without it): drop these ids. */
    deleted: z.object(deleted),
    /** Pass as `since` next time. */
    cursor: z.string(),
  }) as unknown as z.ZodObject<FeedShape<Kinds>>;
}
