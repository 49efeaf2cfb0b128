// The hot path of reading insights (issue 15): a progress batch written in one statement, the
// access decision cached per reader and manuscript, batches of many readers sharing a flush.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { CHANGE_CHANNELS, changeListenerOf } from '../../db/change-listener.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildInvite, personFor, type Person } from '../invites/test-helpers.ts';
import { buildBook } from '../insights/test-helpers.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});

afterAll(async () => {
  await test?.close();
});

async function readerOf(manuscriptId: number): Promise<Person> {
  const reader = await personFor(test);
  const added = await reader.client.post(`/bookmark/${manuscriptId}`);
  expect(added.statusCode, added.body).toBe(200);
  return reader;
}

const chaptersOf = (manuscriptId: number) =>
  test.ctx.db
    .select()
    .from(schema.readingChapters)
    .where(eq(schema.readingChapters.manuscriptId, manuscriptId));

describe('progress writes', () => {
  it('keeps the furthest position on the read (the reads list shows it) with the reading time', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await readerOf(book.id);
    const url = `/bookmark/${book.id}/reading`;
    const first = await reader.client.post(url, {
      blocks: [{ id: 'c1a', ms: 20_000 }],
      position: { block_idx: 4, percent: 40.5 },
    });
    expect(first.statusCode, first.body).toBe(200);
    // A position alone (scrolled past without dwelling), then going back: the furthest stays.
    await reader.client.post(url, { position: { block_idx: 7, percent: 70 } });
    await reader.client.post(url, { position: { block_idx: 1, percent: 10 } });
    const reads = (await reader.client.get('/user/current/bookmarks')).json();
    const mine = reads.bookmarks.find(
      (bookmark: { manuscript: { id: number } }) => bookmark.manuscript.id === book.id,
    );
    expect(mine.progress).toMatchObject({ block_idx: 7, percent: 70 });
    const [state] = await test.ctx.db
      .select()
      .from(schema.readingStates)
      .where(eq(schema.readingStates.manuscriptId, book.id));
    expect(state!.lastActiveAt).toBeInstanceOf(Date);
    expect((await chaptersOf(book.id)).map((row) => row.seconds)).toEqual([20]);

    const empty = await reader.client.post(url, { blocks: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.blocks).toBeDefined();
  });

  it('shares one statement between readers writing at once, each credited once per block', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const readers = await Promise.all([1, 2, 3].map(() => readerOf(book.id)));
    const url = `/bookmark/${book.id}/reading`;
    // Each reader sends two batches at once: c1a twice (credited once, whether the two batches
    // share a statement or not), c2a once.
    const responses = await Promise.all(
      readers.flatMap((reader) => [
        reader.client.post(url, { blocks: [{ id: 'c1a', ms: 200_000 }] }),
        reader.client.post(url, {
          blocks: [
            { id: 'c1a', ms: 200_000 },
            { id: 'c2a', ms: 10_000 },
          ],
        }),
      ]),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const rows = await chaptersOf(book.id);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.blocksSeen).toBe(1);
      expect(row.seconds).toBe(row.chapterId === 'c1' ? 200 : 10);
    }
    // Again, later: c1a was seen, so nothing more.
    await readers[0]!.client.post(url, { blocks: [{ id: 'c1a', ms: 50_000 }] });
    const again = (await chaptersOf(book.id)).filter(
      (row) => row.userId === readers[0]!.user.id && row.chapterId === 'c1',
    );
    expect(again[0]!.seconds).toBe(200);
  });

  it('drops the cached access decision when access is revoked, and when the reader leaves', async () => {
    const book = await buildBook(test.ctx.db, author.user);
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ visibility: 'private' })
      .where(eq(schema.manuscripts.id, book.id));
    const reader = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: book.id,
      invitedUserId: reader.user.id,
    });
    expect((await reader.client.post(`/bookmark/${book.id}`)).statusCode).toBe(200);
    const url = `/bookmark/${book.id}/reading`;
    const batch = { blocks: [{ id: 'c1a', ms: 1000 }] };
    expect((await reader.client.post(url, batch)).statusCode).toBe(200); // decided and cached
    // The author removes the invite (access.revoked): the very next write is refused.
    const removed = await author.client.delete(`/manuscript/invite/${invite.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await reader.client.post(url, batch)).statusCode).toBe(404);

    const other = await buildBook(test.ctx.db, author.user);
    const leaver = await readerOf(other.id);
    const otherUrl = `/bookmark/${other.id}/reading`;
    expect((await leaver.client.post(otherUrl, batch)).statusCode).toBe(200);
    expect((await leaver.client.delete(`/bookmark/${other.id}`)).statusCode).toBe(200);
    expect((await leaver.client.post(otherUrl, batch)).statusCode).toBe(404);
    expect(await chaptersOf(other.id)).toEqual([]);
  });

  it("drops the cached decision on another process's revocation (its event row)", async () => {
    await changeListenerOf(test.ctx).start();
    const book = await buildBook(test.ctx.db, author.user);
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ visibility: 'private' })
      .where(eq(schema.manuscripts.id, book.id));
    const reader = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: book.id,
      invitedUserId: reader.user.id,
    });
    expect((await reader.client.post(`/bookmark/${book.id}`)).statusCode).toBe(200);
    const url = `/bookmark/${book.id}/reading`;
    const batch = { blocks: [{ id: 'c1a', ms: 1000 }] };
    expect((await reader.client.post(url, batch)).statusCode).toBe(200); // decided and cached
    // Another process removes the invite: its change and its event row, not this process's bus.
    // On PostgreSQL the notification arrives a round trip after the commit (the bound the cache
    // promises): the test waits for it, after the cache's own handler has run.
    const announced = new Promise<void>((resolve) =>
      changeListenerOf(test.ctx).on(CHANGE_CHANNELS.access, () => resolve()),
    );
    await test.ctx.db.transaction(async (tx) => {
      await tx.delete(schema.invites).where(eq(schema.invites.id, invite.id));
      await tx.insert(schema.events).values({
        name: 'access.revoked',
        payload: { manuscriptId: book.id, userIds: [reader.user.id] },
      });
    });
    await announced;
    const refused = await reader.client.post(url, batch);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});
