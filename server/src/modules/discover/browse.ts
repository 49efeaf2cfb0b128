import { sql, type SQL } from 'drizzle-orm';
import { DISCOVER_PAGE_SIZE, type DiscoverRequest } from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { KeptCounts } from './kept-counts.ts';
import { discoverable, filters, orderBy, type SearchRow } from './search-sql.ts';

const browseCounts = new KeptCounts<Omit<SearchRow, 'items' | 'current'>>('discover_browse_counts');

/**
 * A search without words lists every manuscript the viewer may find: counting them and their
 * facets is the costly part (the whole table), and the same for every viewer of a kind
 * (anonymous, member, member who shows mature content), so those counts are kept a while
 * (KeptCounts) per kind and filter; the page itself is always read fresh (by the
 * order's index). Owners of a flagged manuscript, who alone find it, are counted afresh.
 */
export async function browse(
  db: Db,
  viewer: UserRow | null,
  request: DiscoverRequest,
  fullStatement: SQL,
): Promise<SearchRow> {
  const kind = !viewer ? 'anonymous' : viewer.showMature ? 'mature' : 'member';
  const key = `${kind}|${request.fs}|${[...request.genre_ids].sort((a, b) => a - b).join(',')}`;
  const ownsFlagged =
    viewer !== null &&
    (
      (await db.execute(sql`select exists (
        select 1 from manuscripts where user_id = ${viewer.id} and moderation_flag
          and archived_at is null) as flagged`)) as unknown as { rows: Array<{ flagged: boolean }> }
    ).rows[0]!.flagged;
  const cached = ownsFlagged ? null : browseCounts.get(db, key);
  if (!cached) {
    const fresh = ((await db.execute(fullStatement)) as unknown as { rows: SearchRow[] }).rows[0]!;
    if (!ownsFlagged) {
      const { items: _items, current: _current, ...counts } = fresh;
      browseCounts.set(db, key, counts);
    }
    return fresh;
  }
  const total = Number(cached.total);
  const lastPage = Math.max(1, Math.ceil(total / DISCOVER_PAGE_SIZE));
  const current = Math.min(request.page, lastPage);
  const page = (await db.execute(sql`
    select s.manuscript_id as id, s.owner_id, s.read_count, null as snippet
    from manuscript_search s
    where ${discoverable(viewer)} ${filters(request)}
    order by ${orderBy(request.sort, false)}
    limit ${DISCOVER_PAGE_SIZE} offset ${(current - 1) * DISCOVER_PAGE_SIZE}`)) as unknown as {
    rows: SearchRow['items'];
  };
  // Fewer manuscripts than the kept count says (some went since): count afresh.
  if (page.rows.length === 0 && total > 0) {
    browseCounts.delete(db, key);
    return browse(db, viewer, request, fullStatement);
  }
  return { ...cached, current, items: page.rows };
}
