import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type CommentListResponse } from '@margins/common';
import { schema } from '../db/index.ts';
import { sessionClient } from '../modules/comments/test-helpers.ts';
import { documentText } from '../modules/comments/document-text.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { seedDemoData } from './index.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
  await seedDemoData(test.ctx);
});
afterAll(async () => {
  await test?.close();
});

async function manuscriptNamed(title: string) {
  const [row] = await test.ctx.db
    .select()
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.title, title));
  return row!;
}

describe('demo comments', () => {
  it('give the novel live margins: anchored highlights, comments by several people, votes', async () => {
    const novel = await manuscriptNamed('The Cartographer’s Silence');
    const response = await new TestClient(test.app).get(`/comments/manuscript/${novel.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as CommentListResponse;
    expect(body.highlights.length).toBeGreaterThanOrEqual(4);
    expect(new Set(body.comments.map((comment) => comment.author_id)).size).toBeGreaterThanOrEqual(
      3,
    );
    expect(body.comments.some((comment) => comment.rank > 0)).toBe(true);
    // Every quote is really where the highlight says, in the current draft.
    const [version] = await test.ctx.db
      .select({ html: schema.manuscriptVersions.html })
      .from(schema.manuscriptVersions)
      .where(eq(schema.manuscriptVersions.id, novel.currentVersionId!));
    const text = documentText(version!.html).text;
    for (const highlight of body.highlights) {
      expect(text.slice(highlight.start!, highlight.end!)).toBe(highlight.quote.exact);
    }
  });

  it('keep the comments of Small Hours private', async () => {
    const poems = await manuscriptNamed('Small Hours');
    expect(poems.privateComments).toBe(true);
    const stranger = await sessionClient(test);
    const body = (
      await stranger.client.get(`/comments/manuscript/${poems.id}`)
    ).json() as CommentListResponse;
    expect(body.comments.length).toBeGreaterThan(0);
    expect(body.comments.every((comment) => comment.comment === MESSAGES.privateComments)).toBe(
      true,
    );
  });

  it('store the report reasons', async () => {
    const [reasons] = await test.ctx.db.select({ total: count() }).from(schema.reportReasons);
    expect(reasons!.total).toBe(6);
  });
});
