// Issue 34 item 4: each comment write and its event row are committed by one transaction (the
// same xmin), so a crash between the write and the event cannot lose the event. These five
// wrote their row on ctx.db and the event after, in a transaction of its own.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { lastEvent, noteEventWriters, writtenBy } from '../../test/event-rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { updateComment } from './comment-service.ts';
import { createHighlight } from './highlight-service.ts';
import { setReaction } from './reaction-service.ts';
import { createReply, updateReply } from './reply-service.ts';
import { setResolved } from './resolve-service.ts';
import { loadScope } from './scope.ts';
import {
  buildScene,
  newSelectionId,
  postComment,
  selectionOf,
  type Scene,
} from './test-helpers.ts';

let test: TestApp;
let scene: Scene;
let commentId: number;

beforeAll(async () => {
  test = await createTestApp();
  await noteEventWriters(test.ctx.db);
  scene = await buildScene(test);
  const posted = await postComment(scene.writer.client, scene.manuscript.id, 'archivist', 'First');
  commentId = posted.comment.id;
});
afterAll(async () => {
  await test?.close();
});

const comments = schema.comments;

describe('a comment write and its event commit together', () => {
  it('a new highlight (the highlight call)', async () => {
    const { db } = test.ctx;
    const scope = await loadScope(test.ctx, scene.reader.user, scene.manuscript.id);
    const selectionId = newSelectionId();
    await createHighlight(test.ctx, scope, selectionId, selectionOf('lamp'));
    const event = await lastEvent(db, 'highlight.created');
    expect(event.payload).toMatchObject({ selectionId });
    expect(event.writtenBy).toBe(
      await writtenBy(db, schema.highlights, eq(schema.highlights.id, selectionId)),
    );
  });

  it("new text for one's comment", async () => {
    const { db } = test.ctx;
    await updateComment(test.ctx, scene.writer.user, commentId, 'Second thoughts');
    const event = await lastEvent(db, 'comment.updated');
    expect(event.payload).toMatchObject({ commentId });
    expect(event.writtenBy).toBe(await writtenBy(db, comments, eq(comments.id, commentId)));
  });

  it('a reaction', async () => {
    const { db } = test.ctx;
    await setReaction(test.ctx, scene.reader.user, commentId, 'heart', true);
    const event = await lastEvent(db, 'reaction.changed');
    expect(event.payload).toMatchObject({ commentId });
    const reaction = schema.commentReactions;
    expect(event.writtenBy).toBe(
      await writtenBy(
        db,
        reaction,
        and(eq(reaction.commentId, commentId), eq(reaction.userId, scene.reader.user.id))!,
      ),
    );
  });

  it('resolving a thread', async () => {
    const { db } = test.ctx;
    await setResolved(test.ctx, scene.owner.user, commentId, true);
    const event = await lastEvent(db, 'comment.resolved');
    expect(event.payload).toMatchObject({ commentId, resolvedAt: expect.any(String) });
    expect(event.writtenBy).toBe(await writtenBy(db, comments, eq(comments.id, commentId)));
  });

  it("new text for one's reply", async () => {
    const { db } = test.ctx;
    const { reply } = await createReply(test.ctx, scene.reader.user, commentId, 'Agreed');
    await updateReply(test.ctx, scene.reader.user, reply.id, 'Agreed, mostly');
    const event = await lastEvent(db, 'reply.updated');
    expect(event.payload).toMatchObject({ replyId: reply.id, commentId });
    expect(event.writtenBy).toBe(await writtenBy(db, comments, eq(comments.id, reply.id)));
  });
});
