import { and, eq, sql } from 'drizzle-orm';
import { MESSAGES, type Bookmark, type ReadingProgressBody } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { HttpError, forbidden, notFound } from '../../lib/http-errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { grantedManuscriptIds } from '../access/grants.ts';
import { NO_READER_ACCESS, readRefusal } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript, presentOne } from '../manuscripts/queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { can, type BookmarkAction } from './policy.ts';
import { presentBookmark, presentBookmarks } from './presenter.ts';
import { findBookmark, listBookmarkRows, type BookmarkRow } from './queries.ts';

export const NOT_IN_READS = 'This manuscript is not in your reads.';

/** The manuscript if the user may do this with it: 404 when it does not exist for them, 403 when gated. */
export async function authorizeBookmark(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  action: BookmarkAction,
): Promise<ManuscriptRow> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript) throw notFound(MESSAGES.bookmarkMissing);
  const access = await loadReaderAccess(ctx, user, manuscript);
  if (readRefusal(user, manuscript, access)) throw notFound(MESSAGES.bookmarkMissing);
  if (!can(user, action, manuscript, access)) throw forbidden(MESSAGES.bookmarkForbidden);
  return manuscript;
}

/** A bookmark row presented with its manuscript card. */
export async function presentBookmarkRow(
  ctx: AppContext,
  row: BookmarkRow,
  manuscript: ManuscriptRow,
): Promise<Bookmark> {
  return presentBookmark(row, await presentOne(ctx.db, manuscript));
}

/** POST /bookmark/{id}: 404 no such manuscript (for them), 403 may not read it, 400 already there. */
export async function createBookmark(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<Bookmark> {
  const manuscript = await authorizeBookmark(ctx, user, manuscriptId, 'create');
  if (await findBookmark(ctx.db, user.id, manuscriptId)) {
    throw new HttpError(400, MESSAGES.bookmarkExists);
  }
  const [row] = await ctx.db
    .insert(schema.bookmarks)
    .values({ userId: user.id, manuscriptId })
    .returning()
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new HttpError(400, MESSAGES.bookmarkExists);
      throw error;
    });
  return presentBookmarkRow(ctx, row!, manuscript);
}

/** DELETE /bookmark/{id}: removes it from the user's reads (404 when it is not there). */
export async function deleteBookmark(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<void> {
  const deleted = await ctx.db
    .delete(schema.bookmarks)
    .where(
      and(eq(schema.bookmarks.userId, user.id), eq(schema.bookmarks.manuscriptId, manuscriptId)),
    )
    .returning({ id: schema.bookmarks.id });
  if (deleted.length === 0) throw notFound(NOT_IN_READS);
}

/** POST /bookmark/{id}/progress: keeps the furthest block and percentage reached. */
export async function recordProgress(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  progress: ReadingProgressBody,
): Promise<Bookmark> {
  const manuscript = await authorizeBookmark(ctx, user, manuscriptId, 'progress');
  const table = schema.bookmarks;
  const [row] = await ctx.db
    .update(table)
    .set({
      progressBlockIdx: sql`greatest(coalesce(${table.progressBlockIdx}, 0), ${progress.block_idx}::integer)`,
      progressPercent: sql`greatest(coalesce(${table.progressPercent}, 0), ${progress.percent}::double precision)`,
      progressUpdatedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(table.userId, user.id), eq(table.manuscriptId, manuscriptId)))
    .returning();
  if (!row) throw notFound(NOT_IN_READS);
  return presentBookmarkRow(ctx, row, manuscript);
}

/** The user's reads they may still open, newest first, with progress (dashboard, list call). */
export async function listReads(ctx: AppContext, user: UserRow): Promise<Bookmark[]> {
  const rows = await listBookmarkRows(ctx.db, user.id);
  return presentBookmarks(ctx.db, await openReads(ctx, user, rows));
}

/** The bookmark rows whose manuscript the user may still open (the policy's `list`). */
export async function openReads<Row extends { manuscript: ManuscriptRow }>(
  ctx: AppContext,
  user: UserRow,
  rows: Row[],
): Promise<Row[]> {
  const granted = await grantedManuscriptIds(
    ctx.db,
    user.id,
    rows.map((row) => row.manuscript.id),
  );
  const certified18 = user.certified18At !== null;
  return rows.filter((row) =>
    can(user, 'list', row.manuscript, {
      ...NO_READER_ACCESS,
      granted: granted.has(row.manuscript.id),
      certified18,
    }),
  );
}
