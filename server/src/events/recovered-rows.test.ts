import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { buildScene, postComment } from '../modules/comments/test-helpers.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { EventBus } from './bus.ts';
import { RowReaders } from './recovered-rows.ts';

// A recovered event's rows are read back by the module they belong to, registered on the bus
// when the app is built: events/ itself imports no module.

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test.close();
});

function busOf(test: TestApp): EventBus {
  if (!(test.ctx.events instanceof EventBus)) throw new Error('ctx.events is not the EventBus');
  return test.ctx.events;
}

describe('reading a recovered event’s rows back (RowReaders)', () => {
  it('has a reader for every event type with rows once the app is built', () => {
    expect(busOf(test).rowReaders.missing()).toEqual([]);
    // Without the modules' registrations, exactly the types with rows are missing.
    const empty = new RowReaders().missing();
    expect(empty).toContain('comment.created');
    expect(empty).toContain('reply.created');
    expect(empty).toContain('access.granted');
    expect(empty).toContain('manuscript.flagged');
    expect(empty).not.toContain('manuscript.archived');
    expect(empty).not.toContain('user.suspended');
  });

  it('reads a comment event’s rows through the comments module, and none once it is gone', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      'cedar',
      'Which lamp?',
    );
    const event = {
      type: 'comment.created' as const,
      actorId: scene.writer.user.id,
      payload: {
        manuscriptId: scene.manuscript.id,
        commentId: comment.id,
        selectionId: comment.selection_id,
      },
      eventId: 1,
    };
    const readers = busOf(test).rowReaders;
    const recovered = await readers.withRowsReadBack(test.ctx.db, event);
    expect(recovered?.type === 'comment.created' && recovered.rows).toMatchObject({
      manuscript: { id: scene.manuscript.id },
      comment: { id: comment.id, body: 'Which lamp?' },
      author: { id: scene.writer.user.id, displayName: scene.writer.user.displayName },
    });
    await test.ctx.db
      .update(schema.comments)
      .set({ deletedAt: new Date() })
      .where(eq(schema.comments.id, comment.id));
    expect(await readers.withRowsReadBack(test.ctx.db, event)).toBeNull();
    // An event without rows needs no reader.
    const archived = await readers.withRowsReadBack(test.ctx.db, {
      type: 'manuscript.archived',
      actorId: null,
      payload: { manuscriptId: scene.manuscript.id },
      eventId: 2,
    });
    expect(archived).toMatchObject({ type: 'manuscript.archived', rows: undefined });
  });

  it('takes one reader per event type, and fails loudly for an event with rows and none', async () => {
    const readers = new RowReaders();
    const reader = async () => null;
    readers.register({ 'comment.ranked': reader });
    readers.register({ 'comment.ranked': reader }); // the same one again (another app): fine
    expect(() => readers.register({ 'comment.ranked': async () => null })).toThrow(
      'comment.ranked: its rows already have a reader',
    );
    await expect(
      readers.withRowsReadBack(test.ctx.db, {
        type: 'comment.created',
        actorId: null,
        payload: { manuscriptId: 1, commentId: 1, selectionId: 'sel-1' },
        eventId: 3,
      }),
    ).rejects.toThrow('comment.created: no module registered how its rows are read back');
  });
});
