import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createHighlight } from './highlight-service.ts';
import { loadScope } from './scope.ts';
import { sweepAbandonedHighlights } from './sweep.ts';
import { buildScene, newSelectionId, postComment, selectionOf } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

describe('the sweep of abandoned highlights', () => {
  it('removes highlights a day old that never got a comment, and nothing else', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const scope = await loadScope(test.ctx, scene.reader.user, scene.manuscript.id);
    const highlight = (quote: string) =>
      createHighlight(test.ctx, scope, newSelectionId(), selectionOf(quote));
    const abandoned = await highlight('three times');
    const fresh = await highlight('river damp');
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, 'cedar', 'Hi');
    const commented = comment.selection_id;
    const { comment: gone } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      'pale',
      'x',
    );
    await test.ctx.db
      .update(schema.comments)
      .set({ deletedAt: sql`now()` })
      .where(eq(schema.comments.id, gone.id));
    const ids = [abandoned.id, fresh.id, commented, gone.selection_id];
    // All but the fresh one are two days old.
    await test.ctx.db
      .update(schema.highlights)
      .set({ createdAt: sql`now() - interval '2 days'`, changedAt: sql`now() - interval '2 days'` })
      .where(inArray(schema.highlights.id, [abandoned.id, commented, gone.selection_id]));

    expect(await sweepAbandonedHighlights(test.ctx.db)).toBe(2);
    const rows = await test.ctx.db
      .select({ id: schema.highlights.id, deletedAt: schema.highlights.deletedAt })
      .from(schema.highlights)
      .where(inArray(schema.highlights.id, ids));
    const deleted = new Set(rows.filter((row) => row.deletedAt !== null).map((row) => row.id));
    expect(deleted).toEqual(new Set([abandoned.id, gone.selection_id]));
    // Readers catching up get a tombstone for each (they are soft-deleted, changed now).
    const since = new Date(Date.now() - 60_000).toISOString();
    const catchUp = await scene.reader.client.get(
      `/comments/manuscript/${scene.manuscript.id}?since=${encodeURIComponent(since)}`,
    );
    expect(catchUp.statusCode).toBe(200);
    expect(JSON.stringify(catchUp.json())).toContain(abandoned.id);
    // Running it again finds nothing more.
    expect(await sweepAbandonedHighlights(test.ctx.db)).toBe(0);
  });
});
