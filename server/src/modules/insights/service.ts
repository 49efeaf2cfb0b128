import {
  INSIGHTS_MESSAGES,
  REMINDER_DAYS_DEFAULT,
  type HeatResponse,
  type InsightsChapter,
  type InsightsReader,
  type InsightsResponse,
  type InsightsSettingsBody,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { round1, round2, stoppedOf } from '../bookmarks/reading.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { currentChapters } from './chapters.ts';
import { can, type InsightsAction } from './policy.ts';
import {
  commentsByAuthor,
  marksByBlock,
  medianSecondsByChapter,
  progressByRead,
  readsOf,
  reminderDaysOf,
  surveyAnswersOf,
} from './queries.ts';

/** The manuscript if the user is its author: 404 none, 403 someone else's. */
export async function authorizeInsights(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  action: InsightsAction,
): Promise<ManuscriptRow> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript || manuscript.archivedAt) throw notFound();
  if (!can(user, action, manuscript)) throw forbidden(INSIGHTS_MESSAGES.notOwner);
  return manuscript;
}

const OPEN_TO_MEMBERS = new Set(['public', 'logged_in']);

/**
 * GET /manuscript/{id}/insights: the drop-off curve, time and engagement per chapter, the
 * per-reader table and the exit reasons, all from the same per-reader rows (so the curve and
 * the table agree). Counts readers who may read now or did read; never the author.
 */
export async function insightsOf(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<InsightsResponse> {
  const manuscript = await authorizeInsights(ctx, user, manuscriptId, 'view');
  const map = await currentChapters(ctx.db, manuscript);
  const order = map.chapters.map((chapter) => chapter.id);
  const [reads, progress, medians, marks, commentCounts, answers, reminderDays] = await Promise.all(
    [
      readsOf(ctx.db, manuscript.id, manuscript.userId),
      progressByRead(ctx.db, manuscript.id, order),
      medianSecondsByChapter(ctx.db, manuscript.id, manuscript.userId),
      marksByBlock(ctx.db, manuscript.id),
      commentsByAuthor(ctx.db, manuscript.id),
      surveyAnswersOf(ctx.db, manuscript.id),
      reminderDaysOf(ctx.db, manuscript.id, REMINDER_DAYS_DEFAULT),
    ],
  );
  const progressOf = new Map(progress.map((row) => [row.bookmarkId, row]));
  const commentsOf = new Map(commentCounts.map((row) => [row.userId, row.count]));
  const chapterIndex = new Map(order.map((id, index) => [id, index]));
  const openToMembers = OPEN_TO_MEMBERS.has(manuscript.visibility);

  const readers: InsightsReader[] = [];
  for (const read of reads) {
    const reading = progressOf.get(read.bookmarkId);
    const didRead = reading !== undefined || read.state?.lastActiveAt != null;
    if (!didRead && !openToMembers && !read.granted) continue;
    const questionnaire = answers.find(
      (answer) => answer.userId === read.userId && answer.type === 'questionaire',
    );
    const stopped = stoppedOf(read.state ?? undefined);
    const lastActive = latest(reading?.lastSeen ?? null, read.state?.lastActiveAt ?? null);
    readers.push({
      user_id: read.userId,
      display_name: read.displayName,
      handle: read.handle,
      furthest_chapter: reading?.furthest ?? null,
      percent: map.blockCount
        ? Math.min(100, round1(((reading?.seen ?? 0) / map.blockCount) * 100))
        : 0,
      last_active: lastActive?.toISOString() ?? null,
      comments: commentsOf.get(read.userId) ?? 0,
      questionnaire: !questionnaire ? 'none' : questionnaire.approvedAt ? 'approved' : 'waiting',
      feedback: answers.some(
        (answer) => answer.userId === read.userId && answer.type === 'feedback',
      )
        ? 'answered'
        : 'none',
      finished: read.state?.finishedAt?.toISOString() ?? null,
      stopped: stopped && {
        ...stopped,
        chapter: chapterIndex.get(read.state?.stopChapterId ?? '') ?? null,
      },
      last_reminded: read.state?.lastRemindedAt?.toISOString() ?? null,
    });
  }

  const medianOf = new Map(medians.map((row) => [row.chapterId, row.median]));
  const marksOf = new Map<number, { highlights: number; comments: number }>();
  for (const row of marks) {
    const index = row.blockId === null ? undefined : map.chapterOf.get(row.blockId);
    if (index === undefined) continue;
    const sum = marksOf.get(index) ?? { highlights: 0, comments: 0 };
    sum.highlights += row.highlights;
    sum.comments += row.comments;
    marksOf.set(index, sum);
  }
  const chapters: InsightsChapter[] = map.chapters.map((chapter, index) => {
    const median = medianOf.get(chapter.id);
    const perThousand = chapter.words > 0 ? 1000 / chapter.words : 0;
    const chapterMarks = marksOf.get(index) ?? { highlights: 0, comments: 0 };
    return {
      id: chapter.id,
      title: chapter.title,
      words: chapter.words,
      reached: readers.filter(
        (reader) => reader.furthest_chapter !== null && reader.furthest_chapter >= index,
      ).length,
      minutes_per_1000:
        median === undefined || chapter.words === 0 ? null : round2((median / 60) * perThousand),
      highlights: chapterMarks.highlights,
      comments: chapterMarks.comments,
      engagement_per_1000: round2((chapterMarks.highlights + chapterMarks.comments) * perThousand),
      stops: readers.filter((reader) => reader.stopped?.chapter === index).length,
    };
  });
  return {
    chapters,
    readers,
    started: readers.filter((reader) => reader.furthest_chapter !== null).length,
    reminder_days: reminderDays,
  };
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

/** GET /manuscript/{id}/insights/heat: highlights and comments per block of the current draft. */
export async function heatOf(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<HeatResponse> {
  const manuscript = await authorizeInsights(ctx, user, manuscriptId, 'view');
  const map = await currentChapters(ctx.db, manuscript);
  const rows = await marksByBlock(ctx.db, manuscript.id);
  return {
    blocks: rows
      .filter((row) => row.blockId !== null && map.chapterOf.has(row.blockId))
      .map((row) => ({ id: row.blockId!, highlights: row.highlights, comments: row.comments })),
  };
}

/** PUT /manuscript/{id}/insights/settings: idle days before a reminder, or off (null). */
export async function saveInsightsSettings(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  body: InsightsSettingsBody,
): Promise<{ reminder_days: number | null }> {
  const manuscript = await authorizeInsights(ctx, user, manuscriptId, 'settings');
  const table = schema.manuscriptReminderSettings;
  await ctx.db
    .insert(table)
    .values({ manuscriptId: manuscript.id, reminderDays: body.reminder_days })
    .onConflictDoUpdate({
      target: table.manuscriptId,
      set: { reminderDays: body.reminder_days, updatedAt: new Date() },
    });
  return { reminder_days: body.reminder_days };
}
