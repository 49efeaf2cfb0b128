import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScene, postComment } from '../modules/comments/test-helpers.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { schema } from './index.ts';
import { rowFromJson } from './json-rows.ts';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});

afterAll(async () => {
  await test?.close();
});

describe('rowFromJson', () => {
  it('reads a row from to_jsonb(row) exactly as a select of its table does', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      'smelled of cedar and river damp',
      'A note.',
    );
    const { comments, highlights } = schema;
    for (const [table, where] of [
      [comments, eq(comments.id, comment.id)],
      [highlights, eq(highlights.id, comment.selection_id)],
    ] as const) {
      const [selected] = await test.ctx.db.select().from(table).where(where);
      const result = (await test.ctx.db.execute(
        sql`SELECT to_jsonb(${table}) AS row FROM ${table} WHERE ${where}`,
      )) as unknown as { rows: Array<{ row: Record<string, unknown> }> };
      const read = rowFromJson(table, result.rows[0]!.row);
      expect(read).toEqual(selected);
      // Dates as dates (microseconds in the database, milliseconds in both reads), arrays as arrays.
      expect((read as { createdAt: unknown }).createdAt).toBeInstanceOf(Date);
    }
  });
});
