import type { Bookmark, Manuscript } from '@margins/common';
import type { Executor } from '../../db/index.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { presentMany } from '../manuscripts/queries.ts';
import type { BookmarkRow } from './queries.ts';

/** A read as its reader sees it: the manuscript card and how far they got. */
export function presentBookmark(row: BookmarkRow, manuscript: Manuscript): Bookmark {
  return {
    id: row.id,
    manuscript_id: row.manuscriptId,
    created: row.createdAt.toISOString(),
    progress: {
      block_idx: row.progressBlockIdx,
      percent: row.progressPercent,
      updated: row.progressUpdatedAt?.toISOString() ?? null,
    },
    manuscript,
  };
}

/** Presents several reads with their manuscript cards (one batch of card queries). */
export async function presentBookmarks(
  db: Executor,
  rows: Array<{ bookmark: BookmarkRow; manuscript: ManuscriptRow }>,
): Promise<Bookmark[]> {
  const cards = await presentMany(
    db,
    rows.map((row) => row.manuscript),
  );
  return rows.map((row, index) => presentBookmark(row.bookmark, cards[index]!));
}
