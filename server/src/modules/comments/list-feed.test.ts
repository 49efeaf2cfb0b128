import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type CommentListResponse } from '@margins/common';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildScene, postComment, type Scene } from './test-helpers.ts';

// The comments list as a feed (issue 11): each writer once, and `since` deltas that carry
// edits and deletions without ever carrying a private comment's text to a reader who may not
// read it.

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const QUOTE = 'smelled of cedar and river damp';
const LATER_QUOTE = 'as quietly as furniture in a dream';

async function list(client: Scene['owner']['client'], manuscriptId: number, since?: string) {
  const query = since ? `?since=${encodeURIComponent(since)}` : '';
  const response = await client.get(`/comments/manuscript/${manuscriptId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, json: response.json() as CommentListResponse };
}

/** A cursor from before every change of the test (the server steps its own back too). */
const earlier = () => new Date(Date.now() - 5_000).toISOString();

describe('the comments list', () => {
  it('sends each writer once, beside comments that name them by id', async () => {
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'One');
    await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Two');
    await postComment(scene.reader.client, scene.manuscript.id, QUOTE, 'Three');

    const { json } = await list(scene.owner.client, scene.manuscript.id);
    expect(json.comments).toHaveLength(3);
    for (const comment of json.comments) expect(comment).not.toHaveProperty('author');
    expect(Object.keys(json.authors).sort()).toEqual(
      [scene.writer.user.id, scene.reader.user.id].map(String).sort(),
    );
    expect(json.authors[String(scene.writer.user.id)]).toEqual({
      id: scene.writer.user.id,
      display_name: scene.writer.user.displayName,
      handle: scene.writer.user.handle,
      picture: null,
    });
    // The viewer's own vote still comes with each comment.
    expect(json.comments.every((comment) => comment.my_vote === 0)).toBe(true);
  });

  it('carries edits and deletions since a cursor, for every viewer as they may see them', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const secret = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Secret');
    const doomed = await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Bye');
    const cursor = earlier();

    const edit = await scene.writer.client.put(`/comments/${secret.comment.id}`, {
      comment: 'Secret, edited',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await scene.writer.client.delete(`/comments/${doomed.comment.id}`)).statusCode).toBe(
      200,
    );

    const owner = await list(scene.owner.client, scene.manuscript.id, cursor);
    expect(owner.json.comments.find((c) => c.id === secret.comment.id)?.comment).toBe(
      'Secret, edited',
    );
    expect(owner.json.deleted.comments).toEqual([doomed.comment.id]);

    // The third reader learns that a comment went (they saw it was there) but never its text,
    // before or after the edit, and no highlight quote either.
    const reader = await list(scene.reader.client, scene.manuscript.id, cursor);
    expect(reader.body).not.toContain('Secret');
    expect(reader.body).not.toContain(QUOTE);
    expect(reader.json.deleted.comments).toEqual([doomed.comment.id]);
    const shown = reader.json.comments.find((c) => c.id === secret.comment.id);
    expect(shown).toMatchObject({ private: true, comment: MESSAGES.privateComments });
    expect(shown?.updated).toBe(shown?.created);
    // A stranger gets nothing at all.
    const stranger = await scene.stranger.client.get(`/comments/manuscript/${scene.manuscript.id}`);
    expect(stranger.statusCode).toBeGreaterThanOrEqual(403);
  });

  it('answers an unchanged list with the same ETag, and a since with the same cursor', async () => {
    const scene = await buildScene(test);
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Steady');
    const url = `/comments/manuscript/${scene.manuscript.id}`;
    const first = await scene.reader.client.get(url);
    const again = await scene.reader.client.get(url, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const { json } = await list(scene.reader.client, scene.manuscript.id);
    const delta = await list(scene.reader.client, scene.manuscript.id, json.cursor);
    expect(delta.json.cursor).toBe(json.cursor);
  });
});
