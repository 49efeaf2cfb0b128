import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type CommentListResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness.ts';
import { tablesTouched } from '../../test/tables-read.ts';
import { COMMENT_LIST_TABLES, commentListAnswers } from './list-wire.ts';
import { listManuscriptComments } from './queries.ts';
import { loadScope } from './scope.ts';
import { buildScene, postComment, revokeReader } from './test-helpers.ts';

// The comments list's kept answers (list-wire.ts): a repeat is served from memory, and yet a
// change the viewer may see shows at once, one they may not see moves nothing they are sent.

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const QUOTE = 'smelled of cedar and river damp';
const LATER_QUOTE = 'as quietly as furniture in a dream';

/** The list as a browser asks for it (brotli), decoded; and its ETag. */
async function listBr(client: TestClient, manuscriptId: number, etag?: string) {
  const response = await client.get(`/comments/manuscript/${manuscriptId}`, {
    headers: { 'accept-encoding': 'br', ...(etag ? { 'if-none-match': etag } : {}) },
  });
  const text =
    response.statusCode === 200 ? brotliDecompressSync(response.rawPayload).toString() : '';
  return {
    status: response.statusCode,
    encoding: response.headers['content-encoding'],
    etag: String(response.headers.etag),
    text,
    json: (text ? JSON.parse(text) : null) as CommentListResponse | null,
  };
}

/** Moves a manuscript's comments and highlights out of the cursor's safety margin (at rest). */
async function atRest(manuscriptId: number) {
  const minuteAgo = new Date(Date.now() - 60_000);
  for (const table of [schema.comments, schema.highlights]) {
    await test.ctx.db
      .update(table)
      .set({ createdAt: minuteAgo, updatedAt: minuteAgo, changedAt: minuteAgo })
      .where(eq(table.manuscriptId, manuscriptId));
  }
}

describe('the kept comments list', () => {
  it('answers a repeat from memory with the same bytes, and a new comment at once', async () => {
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'First');
    const first = await listBr(scene.reader.client, scene.manuscript.id);
    expect(first.status).toBe(200);
    expect(first.encoding).toBe('br');
    expect(first.json?.comments.map((comment) => comment.comment)).toEqual(['First']);
    const again = await listBr(scene.reader.client, scene.manuscript.id);
    expect(again.text).toBe(first.text);
    expect(again.etag).toBe(first.etag);
    expect((await listBr(scene.reader.client, scene.manuscript.id, first.etag)).status).toBe(304);

    await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Second');
    const after = await listBr(scene.reader.client, scene.manuscript.id, first.etag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(first.etag);
    expect(after.json?.comments.map((comment) => comment.comment)).toEqual(['First', 'Second']);
  });

  it('sends the same bytes and ETag as the uncompressed answer, gzip alike', async () => {
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Plain');
    const url = `/comments/manuscript/${scene.manuscript.id}`;
    const plain = await scene.reader.client.get(url);
    const br = await listBr(scene.reader.client, scene.manuscript.id);
    const gzip = await scene.reader.client.get(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(br.text).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(br.etag).toBe(plain.headers.etag);
    expect(gzip.headers.etag).toBe(plain.headers.etag);
  });

  it('keeps a reader’s ETag when a private comment they may not read changes', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const posted = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Secret');
    await atRest(scene.manuscript.id);
    const reader = await listBr(scene.reader.client, scene.manuscript.id);
    const owner = await listBr(scene.owner.client, scene.manuscript.id);
    expect(reader.text).not.toContain('Secret');
    expect(reader.json?.comments[0]?.comment).toBe(MESSAGES.privateComments);

    const edited = await scene.writer.client.put(`/comments/${posted.comment.id}`, {
      comment: 'Secret, edited',
    });
    expect(edited.statusCode).toBe(200);
    // Recomputed (the database changed), and yet the same bytes for the reader.
    expect((await listBr(scene.reader.client, scene.manuscript.id, reader.etag)).status).toBe(304);
    const ownerAfter = await listBr(scene.owner.client, scene.manuscript.id, owner.etag);
    expect(ownerAfter.status).toBe(200);
    expect(ownerAfter.text).toContain('Secret, edited');
  });

  it('refuses a reader whose access was revoked, though their list was kept', async () => {
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Kept');
    expect((await listBr(scene.reader.client, scene.manuscript.id)).status).toBe(200);
    await revokeReader(test.ctx.db, scene.manuscript.id, scene.reader.user.id);
    expect((await listBr(scene.reader.client, scene.manuscript.id)).status).toBeGreaterThanOrEqual(
      403,
    );
  });

  it('stays within its byte budget', () => {
    const { bytes } = commentListAnswers.of(test.ctx).size();
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});

/** A questionnaire on the manuscript, answered and approved by these readers. */
async function withAnsweredQuestionnaire(manuscriptId: number, userIds: number[]) {
  const [survey] = await test.ctx.db
    .insert(schema.surveys)
    .values({ manuscriptId, surveyType: 'questionaire', questions: {} })
    .returning();
  await test.ctx.db.insert(schema.surveyAnswers).values(
    userIds.map((userId) => ({
      surveyId: survey!.id,
      userId,
      answers: {},
      approvedAt: new Date(),
    })),
  );
}

describe('what a kept list depends on', () => {
  it('reads no table but those it declares (the database counts them)', async () => {
    if (test.database.kind !== 'pglite') return;
    const scene = await buildScene(test);
    await withAnsweredQuestionnaire(scene.manuscript.id, [
      scene.reader.user.id,
      scene.writer.user.id,
    ]);
    const posted = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Read');
    await scene.reader.client.post(`/comments/${posted.comment.id}/rank/up`);
    for (const viewer of [scene.reader.user, scene.owner.user, scene.writer.user, null]) {
      // The anonymous visitor is refused by the scope, after reading the access facts.
      const touched = await tablesTouched(test.ctx, async (ctx) => {
        const scope = await loadScope(ctx, viewer, scene.manuscript.id).catch(() => null);
        if (scope) await listManuscriptComments(ctx.db, scope);
      });
      expect(touched.read.has(viewer ? 'comments' : 'manuscripts')).toBe(true);
      expect(
        [...touched.read].filter((table) => !COMMENT_LIST_TABLES.includes(table as never)),
      ).toEqual([]);
      expect([...touched.written]).toEqual([]);
    }
  });

  it('is kept across a reader’s reading-time batch, and built again after a comment', async () => {
    const scene = await buildScene(test);
    const { id } = scene.manuscript;
    await postComment(scene.writer.client, id, QUOTE, 'Kept');
    expect((await scene.reader.client.post(`/bookmark/${id}`)).statusCode).toBe(200);
    const first = await listBr(scene.reader.client, id);
    expect(first.status).toBe(200);
    const built = commentListAnswers.of(test.ctx).computations();
    const read = await scene.reader.client.post(`/bookmark/${id}/reading`, {
      position: { block_idx: 3, percent: 12 },
    });
    expect(read.statusCode, read.body).toBe(200);
    const again = await listBr(scene.reader.client, id);
    expect(again.text).toBe(first.text);
    expect(commentListAnswers.of(test.ctx).computations()).toBe(built);
    const [bookmark] = await test.ctx.db
      .select()
      .from(schema.bookmarks)
      .where(eq(schema.bookmarks.manuscriptId, id));
    expect(bookmark?.progressPercent).toBe(12);

    await postComment(scene.writer.client, id, LATER_QUOTE, 'New');
    const after = await listBr(scene.reader.client, id);
    expect(commentListAnswers.of(test.ctx).computations()).toBeGreaterThan(built);
    expect(after.json?.comments.map((comment) => comment.comment)).toEqual(['Kept', 'New']);
  });
});
