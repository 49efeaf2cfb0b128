import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  READING_BLOCK_MIN_CAP_MS,
  READING_MS_PER_WORD_MAX,
  type OwnReadingResponse,
  type ReadingBatchBody,
  type StopReadingBody,
  type StopReason,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { currentChapters, type ChapterMap } from '../insights/chapters.ts';
import { findBookmark, type BookmarkRow } from './queries.ts';
import { authorizeBookmark, NOT_IN_READS } from './service.ts';

const { readingChapters, readingStates } = schema;

/** The most a block can earn in one sitting: a slow reader's time for its words. */
export const blockCapMs = (words: number): number =>
  Math.max(READING_BLOCK_MIN_CAP_MS, words * READING_MS_PER_WORD_MAX);

/** The reader's read of a manuscript they may read now (404 not in their reads). */
async function readFor(ctx: AppContext, user: UserRow, manuscriptId: number) {
  const manuscript = await authorizeBookmark(ctx, user, manuscriptId, 'progress');
  const bookmark = await findBookmark(ctx.db, user.id, manuscriptId);
  if (!bookmark) throw notFound(NOT_IN_READS);
  return { manuscript, bookmark };
}

/** Per chapter: the blocks of the batch with their time (a block twice in a batch: summed). */
function batchByChapter(map: ChapterMap, body: ReadingBatchBody): Map<string, Map<string, number>> {
  const byChapter = new Map<string, Map<string, number>>();
  for (const block of body.blocks) {
    const index = map.chapterOf.get(block.id);
    // A block of another draft (a page opened before the new one): nothing to count it against.
    if (index === undefined) continue;
    const chapterId = map.chapters[index]!.id;
    const blocks = byChapter.get(chapterId) ?? new Map<string, number>();
    blocks.set(block.id, (blocks.get(block.id) ?? 0) + block.ms);
    byChapter.set(chapterId, blocks);
  }
  return byChapter;
}

/**
 * POST /bookmark/{id}/reading: adds a batch of reading time to the reader's per-chapter
 * aggregates. A block earns time only the first time it is seen (re-reading adds nothing) and
 * at most a slow reader's time for its words; the client has already left out idle and
 * hidden time. One transaction of two statements, whatever the batch size.
 */
export async function recordReading(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  body: ReadingBatchBody,
): Promise<void> {
  const { manuscript, bookmark } = await readFor(ctx, user, manuscriptId);
  const map = await currentChapters(ctx.db, manuscript);
  const byChapter = batchByChapter(map, body);
  if (byChapter.size === 0) return;
  await ctx.db.transaction(async (tx) => {
    const existing = await tx
      .select({ chapterId: readingChapters.chapterId, seen: readingChapters.seenBlockIds })
      .from(readingChapters)
      .where(
        and(
          eq(readingChapters.bookmarkId, bookmark.id),
          inArray(readingChapters.chapterId, [...byChapter.keys()]),
        ),
      )
      .for('update');
    const seenOf = new Map(existing.map((row) => [row.chapterId, row.seen]));
    const now = new Date();
    const rows = [...byChapter].map(([chapterId, blocks]) => {
      const seen = new Set(seenOf.get(chapterId) ?? []);
      let creditMs = 0;
      for (const [blockId, ms] of blocks) {
        if (seen.has(blockId)) continue;
        creditMs += Math.min(ms, blockCapMs(map.wordsOf.get(blockId) ?? 0));
        seen.add(blockId);
      }
      return {
        bookmarkId: bookmark.id,
        chapterId,
        userId: user.id,
        manuscriptId,
        seconds: creditMs / 1000,
        seenBlockIds: [...seen],
        blocksSeen: seen.size,
        firstSeenAt: now,
        lastSeenAt: now,
      };
    });
    await tx
      .insert(readingChapters)
      .values(rows)
      .onConflictDoUpdate({
        target: [readingChapters.bookmarkId, readingChapters.chapterId],
        set: {
          seconds: sql`${readingChapters.seconds} + excluded.seconds`,
          seenBlockIds: sql`excluded.seen_block_ids`,
          blocksSeen: sql`excluded.blocks_seen`,
          lastSeenAt: sql`excluded.last_seen_at`,
        },
      });
    await upsertState(tx, bookmark, { lastActiveAt: now });
  });
}

type StateChange = Partial<typeof readingStates.$inferInsert>;

/** Writes part of a read's state (creating it on the first write). */
export async function upsertState(
  db: Executor,
  bookmark: Pick<BookmarkRow, 'id' | 'userId' | 'manuscriptId'>,
  change: StateChange,
): Promise<void> {
  await db
    .insert(readingStates)
    .values({
      bookmarkId: bookmark.id,
      userId: bookmark.userId,
      manuscriptId: bookmark.manuscriptId,
      ...change,
    })
    .onConflictDoUpdate({ target: readingStates.bookmarkId, set: change });
}

/** POST /manuscript/{id}/complete: the reader reached the end (kept; reminders stop). */
export async function completeReading(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<{ finished: string }> {
  const { bookmark } = await readFor(ctx, user, manuscriptId);
  const now = new Date();
  await ctx.db
    .insert(readingStates)
    .values({
      bookmarkId: bookmark.id,
      userId: user.id,
      manuscriptId,
      finishedAt: now,
      lastActiveAt: now,
    })
    .onConflictDoUpdate({
      target: readingStates.bookmarkId,
      // The first finish is the one that counts; reaching the end again changes nothing.
      set: {
        finishedAt: sql`coalesce(${readingStates.finishedAt}, excluded.finished_at)`,
        lastActiveAt: now,
      },
    });
  const [state] = await ctx.db
    .select({ finishedAt: readingStates.finishedAt })
    .from(readingStates)
    .where(eq(readingStates.bookmarkId, bookmark.id));
  return { finished: (state?.finishedAt ?? now).toISOString() };
}

/** POST /manuscript/{id}/reading/stop: "I'm stopping here", with a reason, at a chapter. */
export async function stopReading(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  body: StopReadingBody,
): Promise<void> {
  const { manuscript, bookmark } = await readFor(ctx, user, manuscriptId);
  const map = await currentChapters(ctx.db, manuscript);
  let chapterId =
    body.chapter_id && map.chapters.some((chapter) => chapter.id === body.chapter_id)
      ? body.chapter_id
      : null;
  if (!chapterId) chapterId = await furthestChapterId(ctx.db, bookmark.id, map);
  await upsertState(ctx.db, bookmark, {
    stoppedAt: new Date(),
    stopReason: body.reason,
    stopText: (body.text ?? '').trim(),
    stopChapterId: chapterId,
  });
}

/** The furthest chapter of the current draft the reader has seen, or the first one. */
async function furthestChapterId(db: Executor, bookmarkId: number, map: ChapterMap) {
  const rows = await db
    .select({ chapterId: readingChapters.chapterId })
    .from(readingChapters)
    .where(eq(readingChapters.bookmarkId, bookmarkId));
  const order = new Map(map.chapters.map((chapter, index) => [chapter.id, index]));
  let furthest = -1;
  for (const row of rows) furthest = Math.max(furthest, order.get(row.chapterId) ?? -1);
  return map.chapters[Math.max(0, furthest)]?.id ?? null;
}

/** GET /manuscript/{id}/reading: the reader's own progress, per chapter (only theirs). */
export async function ownReading(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<OwnReadingResponse> {
  const { manuscript, bookmark } = await readFor(ctx, user, manuscriptId);
  const map = await currentChapters(ctx.db, manuscript);
  const rows = await ctx.db
    .select()
    .from(readingChapters)
    .where(eq(readingChapters.bookmarkId, bookmark.id));
  const [state] = await ctx.db
    .select()
    .from(readingStates)
    .where(eq(readingStates.bookmarkId, bookmark.id));
  const byId = new Map(rows.map((row) => [row.chapterId, row]));
  let seenTotal = 0;
  const chapters = map.chapters.map((chapter) => {
    const row = byId.get(chapter.id);
    const seen = Math.min(row?.blocksSeen ?? 0, chapter.blockIds.length);
    seenTotal += seen;
    return {
      id: chapter.id,
      title: chapter.title,
      words: chapter.words,
      percent: chapter.blockIds.length ? round1((seen / chapter.blockIds.length) * 100) : 0,
      seconds: Math.round(row?.seconds ?? 0),
    };
  });
  return {
    chapters,
    percent: map.blockCount ? round1((seenTotal / map.blockCount) * 100) : 0,
    finished: state?.finishedAt?.toISOString() ?? null,
    stopped: stoppedOf(state),
  };
}

export const round1 = (value: number): number => Math.round(value * 10) / 10;
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The "I'm stopping here" of a state row, as the wire shows it. */
export function stoppedOf(
  state: { stoppedAt: Date | null; stopReason: string | null; stopText: string | null } | undefined,
): { reason: StopReason; text: string; at: string } | null {
  if (!state?.stoppedAt || !state.stopReason) return null;
  return {
    reason: state.stopReason as StopReason,
    text: state.stopText ?? '',
    at: state.stoppedAt.toISOString(),
  };
}
