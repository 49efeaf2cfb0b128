import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Bookmark, BookmarkListQuery } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import {
  listOrderBy,
  listWhere,
  pageOfItems,
  type ListColumns,
  type ListPage,
} from '../../lib/list-query.ts';
import { presentBookmarks } from './presenter.ts';
import { openReads } from './service.ts';

const { bookmarks, manuscripts } = schema;

/** The fields of GET /user/current/bookmarks and the columns they read. */
const READ_COLUMNS: ListColumns<BookmarkListQuery> = {
  sort: {
    created: bookmarks.createdAt,
    title: sql`lower(${manuscripts.title})`,
    progress: sql`coalesce(${bookmarks.progressPercent}, 0)`,
  },
  tieBreaker: bookmarks.id,
  search: [manuscripts.title],
};

/**
 * One page of the user's reads they may still open. Sorting and search run in SQL; the
 * reading policy then drops what they may no longer open, so the page is cut in memory (a
 * user's reads are few). Once the policy has a SQL form the page can be cut in SQL.
 */
export async function pageReads(
  ctx: AppContext,
  user: UserRow,
  query: BookmarkListQuery,
): Promise<ListPage<Bookmark>> {
  const rows = await ctx.db
    .select({ bookmark: bookmarks, manuscript: manuscripts })
    .from(bookmarks)
    .innerJoin(manuscripts, eq(manuscripts.id, bookmarks.manuscriptId))
    .where(
      and(
        eq(bookmarks.userId, user.id),
        isNull(manuscripts.archivedAt),
        listWhere(query, READ_COLUMNS),
      ),
    )
    .orderBy(...listOrderBy(query, READ_COLUMNS));
  const page = pageOfItems(await openReads(ctx, user, rows), query);
  return { ...page, items: await presentBookmarks(ctx.db, page.items) };
}
