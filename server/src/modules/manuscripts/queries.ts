import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Manuscript } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { presentManuscript, type ManuscriptDetails, type ManuscriptRow } from './presenter.ts';

/** A manuscript by id, archived ones included (the policy decides who sees those). */
export async function findManuscript(db: Executor, id: number): Promise<ManuscriptRow | null> {
  const [row] = await db.select().from(schema.manuscripts).where(eq(schema.manuscripts.id, id));
  return row ?? null;
}

/** Live (not deleted) comment counts per manuscript id, 0 for none (one query, for lists). */
export async function countComments(
  db: Executor,
  manuscriptIds: number[],
): Promise<Map<number, number>> {
  const counts = new Map(manuscriptIds.map((id) => [id, 0]));
  if (manuscriptIds.length === 0) return counts;
  const rows = await db
    .select({ manuscriptId: schema.comments.manuscriptId, total: count() })
    .from(schema.comments)
    .where(
      and(inArray(schema.comments.manuscriptId, manuscriptIds), isNull(schema.comments.deletedAt)),
    )
    .groupBy(schema.comments.manuscriptId);
  for (const row of rows) counts.set(row.manuscriptId, row.total);
  return counts;
}

/** Authors, genres and comment counts of several manuscripts, in three queries. */
export async function loadDetails(
  db: Executor,
  rows: ManuscriptRow[],
): Promise<ManuscriptDetails[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const authorIds = [...new Set(rows.map((row) => row.userId))];
  const [authors, genreRows, commentCounts] = await Promise.all([
    db.select().from(schema.users).where(inArray(schema.users.id, authorIds)),
    db
      .select({
        manuscriptId: schema.manuscriptGenres.manuscriptId,
        id: schema.genres.id,
        name: schema.genres.name,
      })
      .from(schema.manuscriptGenres)
      .innerJoin(schema.genres, eq(schema.genres.id, schema.manuscriptGenres.genreId))
      .where(inArray(schema.manuscriptGenres.manuscriptId, ids))
      .orderBy(asc(schema.genres.name), asc(schema.genres.id)),
    countComments(db, ids),
  ]);
  const authorById = new Map(authors.map((author) => [author.id, author]));
  return rows.map((manuscript) => ({
    manuscript,
    author: authorById.get(manuscript.userId)!,
    genres: genreRows.filter((genre) => genre.manuscriptId === manuscript.id),
    commentCount: commentCounts.get(manuscript.id) ?? 0,
  }));
}

/** Presents several manuscripts (see presentManuscript). */
export async function presentMany(db: Executor, rows: ManuscriptRow[]): Promise<Manuscript[]> {
  return (await loadDetails(db, rows)).map(presentManuscript);
}

/** Presents one manuscript. */
export async function presentOne(db: Executor, row: ManuscriptRow): Promise<Manuscript> {
  const [presented] = await presentMany(db, [row]);
  return presented!;
}

/** A user's live (not archived) manuscripts, newest first: the dashboard list. */
export async function listOwnManuscripts(db: Executor, userId: number): Promise<Manuscript[]> {
  const rows = await db
    .select()
    .from(schema.manuscripts)
    .where(and(eq(schema.manuscripts.userId, userId), isNull(schema.manuscripts.archivedAt)))
    .orderBy(desc(schema.manuscripts.createdAt), desc(schema.manuscripts.id));
  return presentMany(db, rows);
}
