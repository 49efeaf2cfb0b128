import { and, asc, eq } from 'drizzle-orm';
import type { GenreCategory } from '@margins/common';
import { schema, type Db, type Executor } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';

export const GENRE_NOT_FOUND = 'That genre does not exist.';

/** The genre catalogue grouped by category: categories by position, genres by name. */
export async function listCatalogue(db: Executor): Promise<GenreCategory[]> {
  const rows = await db
    .select({
      categoryId: schema.genreCategories.id,
      category: schema.genreCategories.name,
      genreId: schema.genres.id,
      name: schema.genres.name,
    })
    .from(schema.genreCategories)
    .leftJoin(schema.genres, eq(schema.genres.categoryId, schema.genreCategories.id))
    .orderBy(
      asc(schema.genreCategories.position),
      asc(schema.genreCategories.name),
      asc(schema.genres.name),
    );
  const byCategory = new Map<number, GenreCategory>();
  for (const row of rows) {
    let entry = byCategory.get(row.categoryId);
    if (!entry) {
      entry = { category: row.category, genres: [] };
      byCategory.set(row.categoryId, entry);
    }
    if (row.genreId !== null && row.name !== null) {
      entry.genres.push({ genre_id: row.genreId, name: row.name });
    }
  }
  return [...byCategory.values()];
}

/** The ids of the genres a user selected, ascending. */
export async function listSelectedGenreIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .select({ genreId: schema.userGenres.genreId })
    .from(schema.userGenres)
    .where(eq(schema.userGenres.userId, userId))
    .orderBy(asc(schema.userGenres.genreId));
  return rows.map((row) => row.genreId);
}

/** A user's interests: their selected genres by name. */
export async function listInterests(
  db: Executor,
  userId: number,
): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: schema.genres.id, name: schema.genres.name })
    .from(schema.userGenres)
    .innerJoin(schema.genres, eq(schema.genres.id, schema.userGenres.genreId))
    .where(eq(schema.userGenres.userId, userId))
    .orderBy(asc(schema.genres.name), asc(schema.genres.id));
}

async function requireGenre(db: Executor, genreId: number): Promise<void> {
  const [genre] = await db
    .select({ id: schema.genres.id })
    .from(schema.genres)
    .where(eq(schema.genres.id, genreId));
  if (!genre) throw notFound(GENRE_NOT_FOUND);
}

/** Adds a genre to the user's preferences; adding it twice changes nothing. 404 for an unknown genre. */
export async function addUserGenre(db: Db, userId: number, genreId: number): Promise<void> {
  await requireGenre(db, genreId);
  await db.insert(schema.userGenres).values({ userId, genreId }).onConflictDoNothing();
}

/** Removes a genre from the user's preferences; removing it twice changes nothing. */
export async function removeUserGenre(db: Db, userId: number, genreId: number): Promise<void> {
  await requireGenre(db, genreId);
  await db
    .delete(schema.userGenres)
    .where(and(eq(schema.userGenres.userId, userId), eq(schema.userGenres.genreId, genreId)));
}
