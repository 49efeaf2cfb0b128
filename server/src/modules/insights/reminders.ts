import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  INSIGHTS_MESSAGES,
  NUDGES_PER_AUTHOR_PER_DAY,
  REMINDER_CRON,
  REMINDER_DAYS_DEFAULT,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import type { JobDefinition } from '../../jobs/definition.ts';
import { HttpError, notFound, tooMany } from '../../lib/http-errors.ts';
import { RateLimiter } from '../../lib/rate-limit.ts';
import { canRead } from '../access/policy.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { mayNotify } from '../notifications/policy.ts';
import { queueMail, wakeMailer } from '../notifications/service.ts';
import { readingReminderMail } from './mails.ts';
import { authorizeInsights } from './service.ts';
import { unsubscribeLink } from './unsubscribe.ts';

const { bookmarks, manuscripts, readingStates, manuscriptReminderSettings, users } = schema;

const DAY_MS = 24 * 60 * 60_000;

/** A read due a reminder: accepted, not finished, not stopped, idle for the author's days. */
interface DueRead {
  bookmarkId: number;
  userId: number;
  manuscriptId: number;
  days: number;
}

/**
 * The reads idle for their manuscript's reminder days (default REMINDER_DAYS_DEFAULT, none
 * where the author turned reminders off) and not reminded within those days: never a finished
 * read, a read the reader stopped, or one they left (the read is gone), nor the author's own.
 */
function dueReads(db: Executor, now: Date): Promise<DueRead[]> {
  const days = sql<number>`coalesce(${manuscriptReminderSettings.reminderDays}, ${REMINDER_DAYS_DEFAULT})`;
  const cutoff = sql`${now.toISOString()}::timestamptz - make_interval(days => ${days})`;
  return db
    .select({
      bookmarkId: bookmarks.id,
      userId: bookmarks.userId,
      manuscriptId: bookmarks.manuscriptId,
      days: days.mapWith(Number),
    })
    .from(bookmarks)
    .innerJoin(manuscripts, eq(manuscripts.id, bookmarks.manuscriptId))
    .leftJoin(
      manuscriptReminderSettings,
      eq(manuscriptReminderSettings.manuscriptId, manuscripts.id),
    )
    .leftJoin(readingStates, eq(readingStates.bookmarkId, bookmarks.id))
    .where(
      and(
        sql`${manuscripts.archivedAt} is null`,
        sql`${manuscripts.userId} <> ${bookmarks.userId}`,
        sql`(${manuscriptReminderSettings.manuscriptId} is null or ${manuscriptReminderSettings.reminderDays} is not null)`,
        sql`${readingStates.finishedAt} is null and ${readingStates.stoppedAt} is null`,
        sql`coalesce(${readingStates.lastActiveAt}, ${bookmarks.createdAt}) < ${cutoff}`,
        sql`(${readingStates.lastRemindedAt} is null or ${readingStates.lastRemindedAt} < ${cutoff})`,
      ),
    )
    .orderBy(bookmarks.id);
}

/**
 * Marks the read reminded now unless it was within `days` (by another process, or a run a
 * moment ago): true when this caller won and must send the mail. One statement, so two
 * processes running the job at once send one mail.
 */
async function claimReminder(tx: Executor, read: DueRead, now: Date, days: number | null) {
  const values = {
    bookmarkId: read.bookmarkId,
    userId: read.userId,
    manuscriptId: read.manuscriptId,
    lastRemindedAt: now,
  };
  const claimed = await tx
    .insert(readingStates)
    .values(values)
    .onConflictDoUpdate({
      target: readingStates.bookmarkId,
      set: { lastRemindedAt: now },
      setWhere:
        days === null
          ? undefined
          : sql`${readingStates.lastRemindedAt} is null or ${readingStates.lastRemindedAt} < ${new Date(now.getTime() - days * DAY_MS).toISOString()}::timestamptz`,
    })
    .returning({ bookmarkId: readingStates.bookmarkId });
  return claimed.length > 0;
}

async function loadPeople(db: Executor, readerId: number, manuscriptId: number) {
  const [reader] = await db.select().from(users).where(eq(users.id, readerId));
  const [manuscript] = await db.select().from(manuscripts).where(eq(manuscripts.id, manuscriptId));
  if (!reader || !manuscript) return null;
  const [author] = await db.select().from(users).where(eq(users.id, manuscript.userId));
  return author ? { reader, manuscript, author } : null;
}

/**
 * Sends one reminder in one transaction: claim the read, then write the mail and its job
 * (with a one-click unsubscribe link). Nothing when the reader does not take reminders, may
 * no longer read, or was reminded already. `days` null: a nudge (no interval to respect).
 */
async function sendReminder(
  ctx: AppContext,
  read: DueRead,
  days: number | null,
  now: Date,
): Promise<boolean> {
  const people = await loadPeople(ctx.db, read.userId, read.manuscriptId);
  if (!people) return false;
  const access = await loadReaderAccess(ctx, people.reader, people.manuscript);
  if (!canRead(people.reader, people.manuscript, access)) return false;
  if (!(await mayNotify(ctx.db, people.reader, 'reminders'))) return false;
  const sent = await ctx.db.transaction(async (tx) => {
    if (!(await claimReminder(tx, read, now, days))) return false;
    const unsubscribeUrl = await unsubscribeLink(ctx, tx, people.reader.id, 'reminders');
    await queueMail(
      ctx,
      tx,
      readingReminderMail(ctx.config.publicUrl, {
        to: people.reader,
        author: people.author,
        title: people.manuscript.title,
        manuscriptId: people.manuscript.id,
        idleDays: days,
        unsubscribeUrl,
      }),
    );
    return true;
  });
  if (sent) wakeMailer(ctx);
  return sent;
}

/** The daily run: a reminder to every idle read due one. Returns how many were sent. */
export async function sendDueReminders(ctx: AppContext, now = new Date()): Promise<number> {
  let sent = 0;
  for (const read of await dueReads(ctx.db, now)) {
    if (await sendReminder(ctx, read, read.days, now)) sent++;
  }
  if (sent > 0) ctx.log?.info?.({ sent }, 'reading reminders sent');
  return sent;
}

/** Every day at REMINDER_CRON (a pg-boss schedule: one run across all processes). */
export const readingRemindersJob: JobDefinition<z.ZodObject> = {
  id: 'reading-reminders',
  payload: z.object({}),
  schedule: { cron: REMINDER_CRON },
  handler: async (ctx) => {
    await sendDueReminders(ctx);
  },
};

const nudgeLimits = new WeakMap<AppContext, { pair: RateLimiter; author: RateLimiter }>();

function limitsFor(ctx: AppContext) {
  let limits = nudgeLimits.get(ctx);
  if (!limits) {
    limits = {
      pair: new RateLimiter(ctx.db, 'nudge-reader', 1, DAY_MS),
      author: new RateLimiter(ctx.db, 'nudge-author', NUDGES_PER_AUTHOR_PER_DAY, DAY_MS),
    };
    nudgeLimits.set(ctx, limits);
  }
  return limits;
}

/**
 * POST /manuscript/{id}/insights/readers/{user_id}/nudge: the author reminds one reader by
 * hand. Only a reader of theirs who has neither finished nor stopped and takes reminders; one
 * a day per reader, NUDGES_PER_AUTHOR_PER_DAY a day per author (counted in the database).
 */
export async function nudgeReader(
  ctx: AppContext,
  author: UserRow,
  manuscriptId: number,
  readerId: number,
): Promise<void> {
  const manuscript = await authorizeInsights(ctx, author, manuscriptId, 'nudge');
  const [read] = await ctx.db
    .select({ bookmark: bookmarks, state: readingStates })
    .from(bookmarks)
    .leftJoin(readingStates, eq(readingStates.bookmarkId, bookmarks.id))
    .where(and(eq(bookmarks.manuscriptId, manuscript.id), eq(bookmarks.userId, readerId)));
  if (!read || readerId === author.id) throw notFound(INSIGHTS_MESSAGES.noReader);
  if (read.state?.finishedAt) throw new HttpError(400, INSIGHTS_MESSAGES.nudgeFinished);
  if (read.state?.stoppedAt) throw new HttpError(400, INSIGHTS_MESSAGES.nudgeStopped);
  const [reader] = await ctx.db.select().from(users).where(eq(users.id, readerId));
  if (!reader || !(await mayNotify(ctx.db, reader, 'reminders'))) {
    throw new HttpError(400, INSIGHTS_MESSAGES.nudgeNoReminders);
  }
  const limits = limitsFor(ctx);
  if (!(await limits.author.hit(`author:${author.id}`))) {
    throw tooMany(INSIGHTS_MESSAGES.nudgeTooMany);
  }
  if (!(await limits.pair.hit(`${manuscript.id}:${readerId}`))) {
    throw tooMany(INSIGHTS_MESSAGES.nudgeTooSoon);
  }
  const due = {
    bookmarkId: read.bookmark.id,
    userId: readerId,
    manuscriptId: manuscript.id,
    days: 0,
  };
  if (!(await sendReminder(ctx, due, null, new Date()))) {
    throw new HttpError(400, INSIGHTS_MESSAGES.nudgeNoReminders);
  }
}
