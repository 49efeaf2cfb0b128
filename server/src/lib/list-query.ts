import { and, asc, desc, ilike, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { pageInfoFor, type FeedQuery, type ListQuery, type PageInfo } from '@margins/common';
import { badRequest, type FieldErrors } from './http-errors.ts';

/** The base fields of every list query; the rest of a parsed query are its filters. */
type BaseField = keyof ListQuery;

/**
 * How one list's query fields map to SQL: only what is named here can reach the query, and
 * every value goes in as a bound parameter (drizzle), never into the SQL text.
 */
export interface ListColumns<Query extends ListQuery> {
  /** Sort field → the column (or SQL expression) it sorts by. */
  sort: Record<Query['sort'], AnyColumn | SQL>;
  /** A unique column, last in every order, so that pages never repeat or skip a row. */
  tieBreaker: AnyColumn;
  /** Filter field → the condition for its value. */
  filters?: {
    [Key in Exclude<keyof Query, BaseField>]?: (value: NonNullable<Query[Key]>) => SQL | undefined;
  };
  /** Where `q` is looked for: a case-insensitive substring match, as plain text. */
  search?: Array<AnyColumn | SQL>;
}

/** One page of a list: the contract's answer. */
export interface ListPage<Item> {
  items: Item[];
  total: number;
  page: PageInfo;
}

/** `text` as a LIKE pattern that matches itself only (% _ and \ lose their meaning). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The filters and search of a query, as one condition (undefined: none). */
export function listWhere<Query extends ListQuery>(
  query: Query,
  columns: ListColumns<Query>,
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  const filters = (columns.filters ?? {}) as Record<
    string,
    ((value: unknown) => SQL | undefined) | undefined
  >;
  for (const [field, condition] of Object.entries(filters)) {
    const value = (query as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && condition) conditions.push(condition(value));
  }
  if (query.q && columns.search?.length) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(or(...columns.search.map((column) => ilike(column, pattern))));
  }
  return and(...conditions);
}

/** The ORDER BY of a query: its sort field in its order, then the tie-breaker. */
export function listOrderBy<Query extends ListQuery>(
  query: Query,
  columns: ListColumns<Query>,
): SQL[] {
  const direction = query.order === 'asc' ? asc : desc;
  return [direction(columns.sort[query.sort as Query['sort']]), direction(columns.tieBreaker)];
}

/** The SQL parts a list's queries are built from. */
interface ListParts {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/**
 * Runs a list: counts the matches, clamps the page to the last one, then fetches that page.
 * `count` and `rows` add the list's own conditions (whose rows, live ones only) to `where`.
 */
export async function runList<Query extends ListQuery, Row>(
  query: Query,
  columns: ListColumns<Query>,
  fetch: {
    count: (where: SQL | undefined) => Promise<number>;
    rows: (parts: ListParts) => Promise<Row[]>;
  },
): Promise<ListPage<Row>> {
  const where = listWhere(query, columns);
  const total = await fetch.count(where);
  const page = pageInfoFor(total, query.page, query.per_page);
  const items =
    total === 0
      ? []
      : await fetch.rows({
          where,
          orderBy: listOrderBy(query, columns),
          limit: page.per_page,
          offset: (page.current - 1) * page.per_page,
        });
  return { items, total, page };
}

/**
 * One page of items already filtered in memory (lists whose last filter is a policy that has
 * no SQL form yet): the same answer as runList, the page clamped the same way.
 */
export function pageOfItems<Item>(items: Item[], query: ListQuery): ListPage<Item> {
  const page = pageInfoFor(items.length, query.page, query.per_page);
  const start = (page.current - 1) * page.per_page;
  return { items: items.slice(start, start + page.per_page), total: items.length, page };
}

/**
 * Parses a list query by hand, for routes that are also pages (a browser's stray query field
 * must not turn a page into a 400): a bad field is a 400 naming it, like a schema failure.
 */
export function parseListQuery<Schema extends z.ZodType>(
  schema: Schema,
  query: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '_');
    (errors[field] ??= []).push(issue.message);
  }
  throw badRequest(errors);
}

/** The point a feed query asks for changes after (its cursor form), or undefined for everything. */
export function feedSince(query: FeedQuery): Date | undefined {
  return query.since ? new Date(query.since) : undefined;
}
