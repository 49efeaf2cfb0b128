import { eq, sql } from 'drizzle-orm';
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
import { allowedRead, forgetReads, type AllowedRead } from './read-access-cache.ts';
import { writeReadingBatch, type CreditedBlock } from './reading-write.ts';
import { authorizeBookmark, NOT_IN_READS } from './service.ts';

const { readingChapters, readingStates } = schema;

/** The most a block can earn in one sitting: a slow reader's time for its words. */
const blockCapMs = (words: number): number =>
  Math.max(READING_BLOCK_MIN_CAP_MS, words * READING_MS_PER_WORD_MAX);

/** The reader's read of a manuscript they may read now (404 not in their reads). */
async function readFor(ctx: AppContext, user: UserRow, manuscriptId: number) {
  const manuscript = await authorizeBookmark(ctx, user, manuscriptId, 'progress');
  const bookmark = await findBookmark(ctx.db, user.id, manuscriptId);
  if (!bookmark) throw notFound(NOT_IN_READS);
  return { manuscript, bookmark };
}

/**
 * The batch's blocks of the current draft, each once (a block twice in a batch: its times
 * summed) and capped at a slow reader's time for its words, with its chapter.
 */
function creditedBlocks(map: ChapterMap, body: ReadingBatchBody): CreditedBlock[] {
  const byBlock = new Map<string, CreditedBlock>();
  for (const block of body.blocks) {
    const index = map.chapterOf.get(block.id);
    // A block of another draft (a page opened before the new one): nothing to count it against.
    if (index === undefined) continue;
    const known = byBlock.get(block.id);
    if (known) known.ms += block.ms;
    else {
      const capMs = blockCapMs(map.wordsOf.get(block.id) ?? 0);
      const chapterId = map.chapters[index]!.id;
      byBlock.set(block.id, { chapterId, blockId: block.id, ms: block.ms, capMs });
    }
  }
  const credited = [...byBlock.values()];
  for (const block of credited) block.ms = Math.min(block.ms, block.capMs);
  return credited;
}

/** The full decision of a progress write: may read it now, and it is in their reads. */
async function decideRead(ctx: AppContext, user: UserRow, manuscriptId: number) {
  const { manuscript, bookmark } = await readFor(ctx, user, manuscriptId);
  return { manuscript, bookmarkId: bookmark.id };
}

/**
 * POST /bookmark/{id}/reading: adds a batch of reading time to the reader's per-chapter
 * aggregates, and keeps their furthest position on the read. A block earns time only the
 * first time it is seen (re-reading adds nothing) and at most a slow reader's time for its
 * words; the client has already left out idle and hidden time. The hot path of insights: the
 * access decision cached for a few seconds (read-access-cache.ts), the chapters cached per
 * draft, then one statement (reading-write.ts).
 */
export async function recordReading(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  body: ReadingBatchBody,
): Promise<void> {
  const decide = () => decideRead(ctx, user, manuscriptId);
  let read = await allowedRead(ctx, user, manuscriptId, decide);
  if (await writeBatch(ctx, read, body)) return;
  // The read is gone since the decision was cached (left, deleted: decide again, a 404 now;
  // added back: the new one), or there is a new draft (its chapters).
  forgetReads(ctx, manuscriptId, [user.id]);
  read = await allowedRead(ctx, user, manuscriptId, decide);
  if (!(await writeBatch(ctx, read, body))) throw notFound(NOT_IN_READS);
}

/** The batch against the read's draft as decided (false: the read or the draft changed). */
async function writeBatch(ctx: AppContext, read: AllowedRead, body: ReadingBatchBody) {
  const map = await currentChapters(ctx.db, read.manuscript);
  const blocks = creditedBlocks(map, body);
  const position = body.position
    ? { blockIdx: body.position.block_idx, percent: body.position.percent }
    : null;
  // Even a batch of another draft's blocks only goes through: the statement tells whether the
  // draft decided on is still the current one (else the blocks may be the new draft's).
  const versionId = read.manuscript.currentVersionId;
  return writeReadingBatch(
    ctx.database,
    { bookmarkId: read.bookmarkId, versionId },
    blocks,
    position,
  );
}

type StateChange = Partial<typeof readingStates.$inferInsert>;

/** Writes part of a read's state (creating it on the first write). */
async function upsertState(
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
