import { and, desc, eq, isNull } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';

export type BookmarkRow = typeof schema.bookmarks.$inferSelect;

export async function findBookmark(
  db: Executor,
  userId: number,
  manuscriptId: number,
): Promise<BookmarkRow | null> {
  const [row] = await db
    .select()
    .from(schema.bookmarks)
    .where(
      and(eq(schema.bookmarks.userId, userId), eq(schema.bookmarks.manuscriptId, manuscriptId)),
    );
  return row ?? null;
}

/** The user's bookmarks of live manuscripts with their manuscripts, newest first. */
export async function listBookmarkRows(
  db: Executor,
  userId: number,
): Promise<Array<{ bookmark: BookmarkRow; manuscript: ManuscriptRow }>> {
  return db
    .select({ bookmark: schema.bookmarks, manuscript: schema.manuscripts })
    .from(schema.bookmarks)
    .innerJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.bookmarks.manuscriptId))
    .where(and(eq(schema.bookmarks.userId, userId), isNull(schema.manuscripts.archivedAt)))
    .orderBy(desc(schema.bookmarks.createdAt), desc(schema.bookmarks.id));
}

/** Adds the manuscript to the user's reads unless it is there; returns the bookmark. */
export async function addBookmark(
  db: Executor,
  userId: number,
  manuscriptId: number,
): Promise<BookmarkRow> {
  await db
    .insert(schema.bookmarks)
    .values({ userId, manuscriptId })
    .onConflictDoNothing({ target: [schema.bookmarks.userId, schema.bookmarks.manuscriptId] });
  return (await findBookmark(db, userId, manuscriptId))!;
}

/** Removes the manuscript from the user's reads; true when there was a bookmark. */
export async function removeBookmark(
  db: Executor,
  userId: number,
  manuscriptId: number,
): Promise<boolean> {
  const deleted = await db
    .delete(schema.bookmarks)
    .where(
      and(eq(schema.bookmarks.userId, userId), eq(schema.bookmarks.manuscriptId, manuscriptId)),
    )
    .returning({ id: schema.bookmarks.id });
  return deleted.length > 0;
}
