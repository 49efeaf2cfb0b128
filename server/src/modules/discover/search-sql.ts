import { sql, type SQL } from 'drizzle-orm';
import type { DiscoverRequest, DiscoverSort } from '@margins/common';
import type { UserRow } from '../../context.ts';

/**
 * A suspended author's manuscripts are not found (moderation). The few suspended users are
 * one hashed set; lifting the suspension lists them again, as nothing else was changed.
 */
const notSuspendedOwner = sql`s.owner_id not in (select id from users where suspended_at is not null)`;

/**
 * Who may find a manuscript through Discover: converted and not archived; public ones, and
 * logged_in ones for logged-in users (never private or restricted ones); a moderator-flagged
 * one only by its owner; a mature one only by users whose preference shows mature content.
 */
export function discoverable(viewer: UserRow | null): SQL {
  if (!viewer) {
    return sql`s.listed and s.visibility = 'public' and not s.flagged and not s.nsfw
      and ${notSuspendedOwner}`;
  }
  return sql`s.listed and s.visibility in ('public', 'logged_in')
    and (not s.flagged or s.owner_id = ${viewer.id})
    and (not s.nsfw or ${viewer.showMature})
    and ${notSuspendedOwner}`;
}

/** The category and genre filters (columns of manuscript_search, unqualified). */
export function filters(request: DiscoverRequest): SQL {
  const genres =
    request.genre_ids.length > 0
      ? sql`and genre_ids && ${`{${request.genre_ids.join(',')}}`}::integer[]`
      : sql``;
  return request.fs ? sql`and category = ${request.fs} ${genres}` : genres;
}

export function orderBy(sort: DiscoverSort, hasText: boolean): SQL {
  switch (sort) {
    case 'most_read':
      return sql`read_count desc, created_at desc, manuscript_id desc`;
    case 'most_commented':
      return sql`comment_count desc, created_at desc, manuscript_id desc`;
    case 'relevance':
      if (hasText) return sql`rank desc, created_at desc, manuscript_id desc`;
      return sql`created_at desc, manuscript_id desc`;
    case 'newest':
      return sql`created_at desc, manuscript_id desc`;
  }
}

export interface SearchRow {
  total: number | string;
  capped: boolean;
  /** The facets' own matches were capped (a filtered search: they are the unfiltered ones). */
  facet_capped: boolean;
  categories: Array<{ category: 'fiction' | 'non-fiction' | 'poetry'; count: number }>;
  genres: Array<{ id: number; count: number }>;
  items: Array<{ id: number; owner_id: number; snippet: string | null; read_count: number }>;
  current: number;
}
