import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { StopReason } from '@margins/common';
import type { AppContext } from '../context.ts';
import { schema, type Executor } from '../db/index.ts';
import { hashPassword } from '../modules/auth/service.ts';
import { currentChapters, type ChapterMap } from '../modules/insights/chapters.ts';

const NOVEL = 'The Cartographer’s Silence';

/** More beta readers of Ada's novel, each at another point, so Insights has a curve to draw. */
const NOVEL_READERS: Array<{
  handle: string;
  displayName: string;
  percent: number;
  daysAgo: number;
  stop?: { reason: StopReason; text: string };
}> = [
  { handle: 'priya_reads', displayName: 'Priya Nair', percent: 100, daysAgo: 1 },
  { handle: 'oskar_lind', displayName: 'Oskar Lind', percent: 85, daysAgo: 2 },
  { handle: 'bea_turner', displayName: 'Bea Turner', percent: 48, daysAgo: 9 },
  {
    handle: 'luca_bianchi',
    displayName: 'Luca Bianchi',
    percent: 34,
    daysAgo: 12,
    stop: {
      reason: 'too_slow',
      text: 'The middle drags: three chapters of maps before anything happens.',
    },
  },
  {
    handle: 'noor_haddad',
    displayName: 'Noor Haddad',
    percent: 12,
    daysAgo: 20,
    stop: { reason: 'confusing', text: 'Too many names in the first chapter.' },
  },
  { handle: 'felix_wong', displayName: 'Felix Wong', percent: 0, daysAgo: 5 },
];

const DAY_MS = 24 * 60 * 60_000;

/**
 * Reading progress for the demo (after the access seed): every read gets per-chapter rows up
 * to its progress, and Ada's novel gets six more readers at different points — finished,
 * stalled, stopped with a reason, never started — so the Insights tab is alive on a fresh start.
 */
export async function seedDemoInsights(ctx: AppContext): Promise<number> {
  const [novel] = await ctx.db
    .select()
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.title, NOVEL));
  if (novel) {
    for (const reader of NOVEL_READERS) {
      const [user] = await ctx.db
        .insert(schema.users)
        .values({
          email: `${reader.handle.replace('_', '.')}@example.com`,
          passwordHash: await hashPassword(randomBytes(18).toString('base64url')),
          handle: reader.handle,
          displayName: reader.displayName,
          emailVerifiedAt: new Date(),
          signupCompletedAt: new Date(),
        })
        .returning();
      await ctx.db.insert(schema.bookmarks).values({
        userId: user!.id,
        manuscriptId: novel.id,
        progressPercent: reader.percent,
        createdAt: new Date(Date.now() - (reader.daysAgo + 10) * DAY_MS),
      });
    }
  }
  const reads = await ctx.db
    .select({ bookmark: schema.bookmarks, manuscript: schema.manuscripts })
    .from(schema.bookmarks)
    .innerJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.bookmarks.manuscriptId))
    .where(ne(schema.manuscripts.userId, schema.bookmarks.userId));
  let seeded = 0;
  for (const [index, { bookmark, manuscript }] of reads.entries()) {
    const map = await currentChapters(ctx.db, manuscript);
    const percent = bookmark.progressPercent ?? 0;
    if (map.blockCount === 0 || percent <= 0) continue;
    const [user] = await ctx.db
      .select({ handle: schema.users.handle })
      .from(schema.users)
      .where(eq(schema.users.id, bookmark.userId));
    const profile = NOVEL_READERS.find((reader) => reader.handle === user?.handle);
    const lastSeen = new Date(Date.now() - (profile?.daysAgo ?? 1) * DAY_MS);
    await seedRead(ctx.db, bookmark, map, percent, index, lastSeen);
    await ctx.db.insert(schema.readingStates).values({
      bookmarkId: bookmark.id,
      userId: bookmark.userId,
      manuscriptId: bookmark.manuscriptId,
      lastActiveAt: lastSeen,
      finishedAt: percent >= 100 ? lastSeen : null,
      stoppedAt: profile?.stop ? lastSeen : null,
      stopReason: profile?.stop?.reason ?? null,
      stopText: profile?.stop?.text ?? null,
      stopChapterId: profile?.stop ? furthestChapter(map, percent) : null,
    });
    seeded++;
  }
  return seeded;
}

function furthestChapter(map: ChapterMap, percent: number): string | null {
  const blocks = Math.ceil((map.blockCount * percent) / 100);
  const chapter = [...map.chapters].reverse().find((candidate) => candidate.start < blocks);
  return chapter?.id ?? map.chapters[0]?.id ?? null;
}

/** Chapter rows for a read that got `percent` of the way: blocks seen, believable minutes. */
async function seedRead(
  db: Executor,
  bookmark: { id: number; userId: number; manuscriptId: number },
  map: ChapterMap,
  percent: number,
  readerIndex: number,
  lastSeen: Date,
) {
  const blocks = Math.ceil((map.blockCount * Math.min(100, percent)) / 100);
  const rows = map.chapters
    .filter((chapter) => chapter.start < blocks)
    .map((chapter, chapterIndex) => {
      const seen = chapter.blockIds.slice(0, Math.max(1, blocks - chapter.start));
      // 180–330 words a minute, varying by reader and chapter (the same every start).
      const wordsPerMinute = 180 + ((readerIndex * 37 + chapterIndex * 53) % 150);
      const words = seen.reduce((sum, id) => sum + (map.wordsOf.get(id) ?? 0), 0);
      return {
        bookmarkId: bookmark.id,
        chapterId: chapter.id,
        userId: bookmark.userId,
        manuscriptId: bookmark.manuscriptId,
        seconds: Math.round((words / wordsPerMinute) * 60),
        seenBlockIds: seen,
        blocksSeen: seen.length,
        firstSeenAt: lastSeen,
        lastSeenAt: lastSeen,
      };
    });
  if (rows.length > 0) await db.insert(schema.readingChapters).values(rows);
  await db
    .update(schema.bookmarks)
    .set({ progressUpdatedAt: lastSeen })
    .where(and(eq(schema.bookmarks.id, bookmark.id)));
}
