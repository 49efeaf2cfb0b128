import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_MESSAGES, type InsightsResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildInvite, personFor, type Person } from '../invites/test-helpers.ts';
import { buildBook } from './test-helpers.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});

afterAll(async () => {
  await test?.close();
});

/** A reader who added the manuscript to their reads. */
async function readerOf(manuscriptId: number): Promise<Person> {
  const reader = await personFor(test);
  const added = await reader.client.post(`/bookmark/${manuscriptId}`);
  expect(added.statusCode, added.body).toBe(200);
  return reader;
}

const read = (reader: Person, manuscriptId: number, blocks: Array<[string, number]>) =>
  reader.client.post(`/bookmark/${manuscriptId}/reading`, {
    blocks: blocks.map(([id, ms]) => ({ id, ms })),
  });

const insights = async (manuscriptId: number): Promise<InsightsResponse> => {
  const response = await author.client.get(`/manuscript/${manuscriptId}/insights`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('recording reading time', () => {
  it('keeps per-chapter aggregates: chapters from the TOC (h1–h2), re-reads not counted twice', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    expect(
      (
        await read(reader, book.id, [
          ['c1', 1000],
          ['c1a', 60_000],
        ])
      ).statusCode,
    ).toBe(200);
    // Back to the same paragraph (a re-read): no more time; a new one counts.
    await read(reader, book.id, [
      ['c1a', 90_000],
      ['c1b', 30_000],
    ]);
    // The h3 is inside chapter three, not a chapter of its own.
    await read(reader, book.id, [['c3s', 2000]]);
    const rows = await test.ctx.db
      .select()
      .from(schema.readingChapters)
      .where(eq(schema.readingChapters.manuscriptId, book.id));
    const byChapter = Object.fromEntries(rows.map((row) => [row.chapterId, row]));
    expect(Object.keys(byChapter).sort()).toEqual(['c1', 'c3']);
    expect(byChapter.c1!.seconds).toBe(91);
    expect(byChapter.c1!.blocksSeen).toBe(3);
    expect(byChapter.c3!.seconds).toBe(2);
    const own = (await reader.client.get(`/manuscript/${book.id}/reading`)).json();
    expect(own.chapters.map((chapter: { id: string }) => chapter.id)).toEqual(['c1', 'c2', 'c3']);
    expect(own.chapters[0]).toMatchObject({ percent: 100, seconds: 91 });
    expect(own.percent).toBe(40);
  });

  it("caps one block's time at a slow reader's pace for its words (an open tab is not reading)", async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    await read(reader, book.id, [['c2a', 3_600_000]]);
    const [row] = await test.ctx.db
      .select()
      .from(schema.readingChapters)
      .where(eq(schema.readingChapters.manuscriptId, book.id));
    expect(row!.seconds).toBe(300); // 500 words × 0.6 s
  });

  it("maps a new draft's chapters by block ids, and ignores blocks it no longer has", async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    await read(reader, book.id, [['c2a', 10_000]]);
    // A new draft: a chapter before them, chapter "Two" kept (same heading id), c1 gone.
    const [draft] = await test.ctx.db
      .insert(schema.manuscriptVersions)
      .values({
        manuscriptId: book.id,
        number: 2,
        sourceFormat: 'html',
        fileName: 'two.html',
        html: '<h1 id="n0">Prologue</h1><p id="n0a">New words here.</p><h2 id="c2">Two</h2><p id="c2a">Same.</p><p id="c2c">More.</p>',
        toc: [
          { id: 'n0', level: 1, text: 'Prologue' },
          { id: 'c2', level: 2, text: 'Two' },
        ],
        words: 7,
      })
      .returning();
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ currentVersionId: draft!.id })
      .where(eq(schema.manuscripts.id, book.id));
    // c2a was read in the first draft: no time again; c1a is gone: ignored.
    await read(reader, book.id, [
      ['c2a', 5000],
      ['c2c', 4000],
      ['c1a', 9000],
    ]);
    const result = await insights(book.id);
    expect(result.chapters.map((chapter) => chapter.title)).toEqual(['Prologue', 'Two']);
    const row = result.readers.find((candidate) => candidate.user_id === reader.user.id)!;
    expect(row.furthest_chapter).toBe(1);
    expect(result.chapters.map((chapter) => chapter.reached)).toEqual([1, 1]);
    expect(result.chapters[1]!.minutes_per_1000).toBeCloseTo((14 / 60) * (1000 / 3), 1);
  });

  it('refuses a bad batch with field errors, and a read that is not theirs', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    const bad = await reader.client.post(`/bookmark/${book.id}/reading`, {
      blocks: [{ id: '', ms: -1 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['blocks']);
    const stranger = await personFor(test);
    expect((await read(stranger, book.id, [['c1a', 1000]])).statusCode).toBe(404);
    expect(
      (
        await new TestClient(test.app).post(`/bookmark/${book.id}/reading`, {
          blocks: [{ id: 'c1a', ms: 1 }],
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('the Insights of a manuscript', () => {
  it('draws the drop-off from the same rows as the reader table (a hand-made set)', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    // Five readers: one never started, two stopped in chapter one, one reached two, one finished.
    const idle = await readerOf(book.id);
    const early = [await readerOf(book.id), await readerOf(book.id)];
    const middle = await readerOf(book.id);
    const done = await readerOf(book.id);
    for (const reader of early) await read(reader, book.id, [['c1a', 60_000]]);
    await read(middle, book.id, [
      ['c1a', 120_000],
      ['c1b', 120_000],
      ['c2a', 30_000],
    ]);
    await read(done, book.id, [
      ['c1a', 180_000],
      ['c2a', 60_000],
      ['c3a', 60_000],
      ['c3b', 60_000],
    ]);
    expect((await done.client.post(`/manuscript/${book.id}/complete`)).statusCode).toBe(200);
    const stop = await early[0]!.client.post(`/manuscript/${book.id}/reading/stop`, {
      reason: 'confusing',
      text: 'Too many names at once.',
    });
    expect(stop.statusCode, stop.body).toBe(200);

    const result = await insights(book.id);
    expect(result.started).toBe(4);
    expect(result.chapters.map((chapter) => chapter.reached)).toEqual([4, 2, 1]);
    expect(result.readers).toHaveLength(5);
    const row = (person: Person) =>
      result.readers.find((reader) => reader.user_id === person.user.id)!;
    expect(row(idle)).toMatchObject({ furthest_chapter: null, percent: 0, finished: null });
    expect(row(middle)).toMatchObject({ furthest_chapter: 1, percent: 30 });
    expect(row(done).finished).toEqual(expect.any(String));
    expect(row(done).furthest_chapter).toBe(2);
    expect(row(early[0]!).stopped).toMatchObject({
      reason: 'confusing',
      text: 'Too many names at once.',
      chapter: 0,
    });
    expect(result.chapters[0]!.stops).toBe(1);
    // The curve is the table counted: readers whose furthest chapter is this one or later.
    result.chapters.forEach((chapter, index) => {
      expect(chapter.reached).toBe(
        result.readers.filter((reader) => (reader.furthest_chapter ?? -1) >= index).length,
      );
    });
    // Median of 60, 60, 240, 180 s in chapter one (1,001 words): 120 s → 2 min per 1,000 words.
    expect(result.chapters[0]!.minutes_per_1000).toBeCloseTo(2, 1);
    expect(result.chapters[1]!.minutes_per_1000).toBeCloseTo(0.75, 1);
    expect(result.reminder_days).toBe(7);
  });

  it('counts highlights and comments per chapter (per 1,000 words)', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    const [highlight] = await test.ctx.db
      .insert(schema.highlights)
      .values({
        id: `h-${book.id}`,
        manuscriptId: book.id,
        versionId: book.currentVersionId,
        userId: reader.user.id,
        startPath: [4, 0],
        endPath: [4, 0],
        startOffset: 0,
        endOffset: 4,
        selectedText: 'word',
        blockId: 'c2a',
        blockOffset: 0,
        textStart: 0,
        textEnd: 4,
        quoteExact: 'word',
        quotePrefix: '',
        quoteSuffix: '',
      })
      .returning();
    await test.ctx.db.insert(schema.comments).values([
      { manuscriptId: book.id, selectionId: highlight!.id, authorId: reader.user.id, body: 'Hm.' },
      { manuscriptId: book.id, selectionId: highlight!.id, authorId: reader.user.id, body: 'Oh!' },
    ]);
    const result = await insights(book.id);
    expect(result.chapters[1]).toMatchObject({ highlights: 1, comments: 2 });
    expect(result.chapters[1]!.engagement_per_1000).toBeCloseTo(3, 1);
    expect(result.readers[0]!.comments).toBe(2);
    const heat = (await author.client.get(`/manuscript/${book.id}/insights/heat`)).json();
    expect(heat.blocks).toEqual([{ id: 'c2a', highlights: 1, comments: 2 }]);
  });

  it('makes sense with no reader at all', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const result = await insights(book.id);
    expect(result).toMatchObject({ started: 0, readers: [] });
    expect(result.chapters.map((chapter) => [chapter.reached, chapter.minutes_per_1000])).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
  });

  it('keeps the reminder setting: days, or off', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const url = `/manuscript/${book.id}/insights/settings`;
    expect((await author.client.put(url, { reminder_days: 3 })).json()).toEqual({
      reminder_days: 3,
    });
    expect((await insights(book.id)).reminder_days).toBe(3);
    await author.client.put(url, { reminder_days: null });
    expect((await insights(book.id)).reminder_days).toBeNull();
    const bad = await author.client.put(url, { reminder_days: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.reminder_days).toEqual([INSIGHTS_MESSAGES.reminderDays]);
  });
});

describe('privacy', () => {
  it('lets only the author see Insights, for every Insights route and every role', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    await read(reader, book.id, [['c1a', 1000]]);
    const otherAuthor = await personFor(test);
    const admin = await personFor(test, { role: 'admin' });
    const moderator = await personFor(test, { role: 'moderator' });
    const anonymous = { client: new TestClient(test.app) };
    const routes: Array<[string, (client: TestClient) => Promise<{ statusCode: number }>]> = [
      ['insights', (client) => client.get(`/manuscript/${book.id}/insights`)],
      ['heat', (client) => client.get(`/manuscript/${book.id}/insights/heat`)],
      [
        'settings',
        (client) => client.put(`/manuscript/${book.id}/insights/settings`, { reminder_days: 5 }),
      ],
      [
        'nudge',
        (client) => client.post(`/manuscript/${book.id}/insights/readers/${reader.user.id}/nudge`),
      ],
    ];
    for (const [name, call] of routes) {
      expect([name, (await call(anonymous.client)).statusCode]).toEqual([name, 401]);
      for (const someone of [reader, otherAuthor, admin, moderator]) {
        expect([name, (await call(someone.client)).statusCode]).toEqual([name, 403]);
      }
    }
    expect((await author.client.get(`/manuscript/${book.id}/insights`)).statusCode).toBe(200);
    expect((await author.client.get('/manuscript/99999999/insights')).statusCode).toBe(404);
  });

  it("shows a reader their own progress only, and another manuscript's author nothing", async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    const other = await readerOf(book.id);
    await read(reader, book.id, [['c1a', 1000]]);
    const own = (await other.client.get(`/manuscript/${book.id}/reading`)).json();
    expect(own.percent).toBe(0);
    const stranger = await personFor(test);
    expect((await stranger.client.get(`/manuscript/${book.id}/reading`)).statusCode).toBe(404);
  });

  it('takes the progress away when the reader leaves (the comments stay)', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    await read(reader, book.id, [['c1a', 1000]]);
    await reader.client.post(`/manuscript/${book.id}/reading/stop`, { reason: 'no_time' });
    expect((await insights(book.id)).readers).toHaveLength(1);
    expect((await reader.client.delete(`/bookmark/${book.id}`)).statusCode).toBe(200);
    const result = await insights(book.id);
    expect(result.readers).toEqual([]);
    expect(result.chapters[0]!.reached).toBe(0);
    const left = await test.ctx.db
      .select()
      .from(schema.readingChapters)
      .where(eq(schema.readingChapters.userId, reader.user.id));
    expect(left).toEqual([]);
  });

  it('counts readers who may read now or did read, not an invitee whose access went', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ visibility: 'private' })
      .where(eq(schema.manuscripts.id, book.id));
    const kept = await personFor(test);
    const revoked = await personFor(test);
    await buildInvite(test.ctx.db, { manuscriptId: book.id, invitedUserId: kept.user.id });
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: book.id,
      invitedUserId: revoked.user.id,
    });
    for (const person of [kept, revoked]) {
      await test.ctx.db
        .insert(schema.bookmarks)
        .values({ userId: person.user.id, manuscriptId: book.id });
    }
    await test.ctx.db.delete(schema.invites).where(eq(schema.invites.id, invite.id));
    expect((await insights(book.id)).readers.map((reader) => reader.user_id)).toEqual([
      kept.user.id,
    ]);
  });
});
