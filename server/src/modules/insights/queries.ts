import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import { grantOn } from '../access/grants.ts';

const { bookmarks, readingChapters, readingStates, users, highlights, comments } = schema;

/** A PostgreSQL text[] literal, passed as one parameter. */
function textArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** Every read of the manuscript but the author's own, with the reader and the read's state. */
export function readsOf(db: Executor, manuscriptId: number, ownerId: number) {
  return db
    .select({
      bookmarkId: bookmarks.id,
      userId: bookmarks.userId,
      displayName: users.displayName,
      handle: users.handle,
      state: readingStates,
      granted: sql<boolean>`${grantOn(bookmarks.manuscriptId, bookmarks.userId)}`,
    })
    .from(bookmarks)
    .innerJoin(users, eq(users.id, bookmarks.userId))
    .leftJoin(readingStates, eq(readingStates.bookmarkId, bookmarks.id))
    .where(and(eq(bookmarks.manuscriptId, manuscriptId), ne(bookmarks.userId, ownerId)));
}

/**
 * Per read: the furthest chapter (index into `order`, 0-based), the blocks seen in chapters
 * of the current draft, and when the reader was last on a page. One grouped statement.
 */
export async function progressByRead(db: Executor, manuscriptId: number, order: string[]) {
  const chapters = sql`${textArray(order)}::text[]`;
  return db
    .select({
      bookmarkId: readingChapters.bookmarkId,
      furthest: sql<
        number | null
      >`max(array_position(${chapters}, ${readingChapters.chapterId})) - 1`.mapWith((value) =>
        value === null ? null : Number(value),
      ),
      seen: sql<number>`coalesce(sum(${readingChapters.blocksSeen}) filter (where ${readingChapters.chapterId} = any(${chapters})), 0)`.mapWith(
        Number,
      ),
      lastSeen: sql<Date>`max(${readingChapters.lastSeenAt})`.mapWith(
        (value: string | Date) => new Date(value),
      ),
    })
    .from(readingChapters)
    .where(eq(readingChapters.manuscriptId, manuscriptId))
    .groupBy(readingChapters.bookmarkId);
}

/** Per chapter: the median seconds of the readers who spent time in it (others excluded). */
export function medianSecondsByChapter(db: Executor, manuscriptId: number, ownerId: number) {
  return db
    .select({
      chapterId: readingChapters.chapterId,
      median:
        sql<number>`percentile_cont(0.5) within group (order by ${readingChapters.seconds})`.mapWith(
          Number,
        ),
    })
    .from(readingChapters)
    .where(
      and(
        eq(readingChapters.manuscriptId, manuscriptId),
        ne(readingChapters.userId, ownerId),
        sql`${readingChapters.seconds} > 0`,
      ),
    )
    .groupBy(readingChapters.chapterId);
}

/** Per block: live highlights placed in the current draft and their live comments. */
export function marksByBlock(db: Executor, manuscriptId: number) {
  return db
    .select({
      blockId: highlights.blockId,
      highlights: sql<number>`count(distinct ${highlights.id})`.mapWith(Number),
      comments: sql<number>`count(${comments.id})`.mapWith(Number),
    })
    .from(highlights)
    .leftJoin(comments, and(eq(comments.selectionId, highlights.id), isNull(comments.deletedAt)))
    .where(
      and(
        eq(highlights.manuscriptId, manuscriptId),
        isNull(highlights.deletedAt),
        eq(highlights.orphaned, false),
      ),
    )
    .groupBy(highlights.blockId);
}

/** Live comments per writer on the manuscript. */
export function commentsByAuthor(db: Executor, manuscriptId: number) {
  return db
    .select({
      userId: comments.authorId,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(comments)
    .where(and(eq(comments.manuscriptId, manuscriptId), isNull(comments.deletedAt)))
    .groupBy(comments.authorId);
}

/** The questionnaire and feedback answers given for the manuscript. */
export function surveyAnswersOf(db: Executor, manuscriptId: number) {
  return db
    .select({
      userId: schema.surveyAnswers.userId,
      type: schema.surveys.surveyType,
      approvedAt: schema.surveyAnswers.approvedAt,
    })
    .from(schema.surveyAnswers)
    .innerJoin(schema.surveys, eq(schema.surveys.id, schema.surveyAnswers.surveyId))
    .where(eq(schema.surveys.manuscriptId, manuscriptId));
}

/** The author's idle days before a reminder (null: off); no row means the default. */
export async function reminderDaysOf(
  db: Executor,
  manuscriptId: number,
  fallback: number,
): Promise<number | null> {
  const [row] = await db
    .select({ days: schema.manuscriptReminderSettings.reminderDays })
    .from(schema.manuscriptReminderSettings)
    .where(eq(schema.manuscriptReminderSettings.manuscriptId, manuscriptId));
  return row ? row.days : fallback;
}
