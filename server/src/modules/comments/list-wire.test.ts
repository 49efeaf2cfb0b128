import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type CommentListResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { changeMark, writeTargets } from '../../lib/change-mark.ts';
import type { UserRow } from '../../context.ts';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness.ts';
import { commentListAnswers, commentListMark, LIST_IGNORES } from './list-wire.ts';
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
    const { bytes } = commentListAnswers.size(test.database);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});

/**
 * The SQL a list for this viewer is built with (embedded): run on a database handle of its own
 * that records each statement, so the app's background work at the same time is not in it.
 */
async function listStatements(viewer: UserRow, manuscriptId: number): Promise<string[]> {
  const pglite = test.database.pglite!;
  const seen: string[] = [];
  const recording = new Proxy(pglite, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'query' && property !== 'exec') return value.bind(target);
      return (statement: string, ...rest: unknown[]) => {
        seen.push(statement);
        return (value as (...args: unknown[]) => unknown).call(target, statement, ...rest);
      };
    },
  });
  const db = drizzle(recording, { schema }) as unknown as typeof test.ctx.db;
  await listManuscriptComments(db, await loadScope({ ...test.ctx, db }, viewer, manuscriptId));
  return seen;
}

describe('a reader’s reading-time batches', () => {
  it('are written to tables no comments list reads', async () => {
    if (test.database.kind !== 'pglite') return;
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Read');
    const built = await listStatements(scene.reader.user, scene.manuscript.id);
    expect(built.some((statement) => /\bcomments\b/i.test(statement))).toBe(true);
    expect(LIST_IGNORES).toEqual([
      'bookmarks',
      'reading_states',
      'reading_chapters',
      'manuscript_search',
    ]);
    for (const statement of built) {
      for (const table of LIST_IGNORES) {
        expect(new RegExp(`\\b${table}\\b`, 'i').test(statement), statement).toBe(false);
      }
    }
  });

  it('fire triggers that write only among those tables', async () => {
    const result = await test.ctx.db.execute<{ trigger: string; body: string }>(
      sql.raw(
        `select t.tgname as trigger, p.prosrc as body from pg_trigger t
         join pg_proc p on p.oid = t.tgfoid
         where not t.tgisinternal and t.tgrelid in (${LIST_IGNORES.map(
           (table) => `'${table}'::regclass`,
         ).join(', ')})`,
      ),
    );
    const triggers = (result as unknown as { rows: Array<{ trigger: string; body: string }> }).rows;
    // Today: a bookmark made or removed moves its manuscript's read count in the search rows.
    expect(triggers.map((row) => row.trigger)).toEqual(['manuscript_search_reads']);
    for (const { trigger, body } of triggers) {
      expect(/\bexecute\b|\bperform\b|margins_\w+\s*\(/i.test(body), trigger).toBe(false);
      const targets = writeTargets(body);
      expect(targets.size, trigger).toBeGreaterThan(0);
      for (const target of targets) expect(LIST_IGNORES, trigger).toContain(target);
    }
  });

  it('leave every kept list as it was, where a comment does not (embedded)', async () => {
    if (test.database.kind !== 'pglite') return;
    const scene = await buildScene(test);
    const { id } = scene.manuscript;
    await postComment(scene.writer.client, id, QUOTE, 'Kept');
    expect((await scene.reader.client.post(`/bookmark/${id}`)).statusCode).toBe(200);
    // Anything else written meanwhile (the comment's events, marked dispatched a moment later),
    // even while the first list was built, is a change: the round is made again until only the
    // batch wrote during it.
    let quiet = false;
    for (let round = 1; round <= 20 && !quiet; round++) {
      const mark = await changeMark(test.database, commentListMark);
      const first = await listBr(scene.reader.client, id);
      expect(first.status).toBe(200);
      const built = commentListAnswers.computations(test.database);
      const read = await scene.reader.client.post(`/bookmark/${id}/reading`, {
        position: { block_idx: round, percent: round * 4 },
      });
      expect(read.statusCode, read.body).toBe(200);
      const again = await listBr(scene.reader.client, id);
      if ((await changeMark(test.database, commentListMark)) !== mark) continue;
      quiet = true;
      expect(again.text).toBe(first.text);
      expect(commentListAnswers.computations(test.database)).toBe(built);
      const [bookmark] = await test.ctx.db
        .select()
        .from(schema.bookmarks)
        .where(eq(schema.bookmarks.manuscriptId, id));
      expect(bookmark?.progressPercent).toBe(round * 4);
    }
    expect(quiet).toBe(true);
    // A comment is a change: built again, with it.
    const built = commentListAnswers.computations(test.database);
    await postComment(scene.writer.client, id, LATER_QUOTE, 'New');
    const after = await listBr(scene.reader.client, id);
    expect(commentListAnswers.computations(test.database)).toBeGreaterThan(built);
    expect(after.json?.comments.map((comment) => comment.comment)).toEqual(['Kept', 'New']);
  });
});
