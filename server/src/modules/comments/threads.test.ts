import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, THREAD_MESSAGES, type Reply, type ThreadsResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sendReplyDigests } from '../notifications/reply-digest.ts';
import { buildScene, postComment, sessionClient, type Scene } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const QUOTE = 'smelled of cedar and river damp';

async function threadsOf(client: Scene['owner']['client'], manuscriptId: number) {
  const response = await client.get(`/comments/manuscript/${manuscriptId}/threads`);
  expect(response.statusCode).toBe(200);
  return response.json() as ThreadsResponse;
}

async function reply(client: Scene['owner']['client'], commentId: number, text: string) {
  const response = await client.post(`/comments/${commentId}/replies`, { comment: text });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { reply: Reply }).reply;
}

describe('replies over HTTP', () => {
  it('lets every reader reply, lists replies apart from comments, edits and deletes', async () => {
    const scene = await buildScene(test);
    const id = scene.manuscript.id;
    const { comment } = await postComment(scene.writer.client, id, QUOTE, 'Lovely smell.');
    const answer = await reply(scene.reader.client, comment.id, 'I could smell it too.');
    expect(answer).toMatchObject({ comment_id: comment.id, comment: 'I could smell it too.' });

    // Replies are not margin comments: the comment list is unchanged.
    const list = (await scene.owner.client.get(`/comments/manuscript/${id}`)).json() as {
      comments: Array<{ id: number }>;
    };
    expect(list.comments.map((row) => row.id)).toEqual([comment.id]);
    for (const who of [scene.owner, scene.writer, scene.reader]) {
      const threads = await threadsOf(who.client, id);
      expect(threads.replies.map((row) => row.id)).toEqual([answer.id]);
    }
    expect((await scene.stranger.client.get(`/comments/manuscript/${id}/threads`)).statusCode).toBe(
      404,
    );

    // One level deep.
    const nested = await scene.writer.client.post(`/comments/${answer.id}/replies`, {
      comment: 'deeper',
    });
    expect(nested.statusCode).toBe(403);
    expect(nested.json().error).toBe(THREAD_MESSAGES.replyToReply);
    // Blank replies are refused with a field message.
    const blank = await scene.writer.client.post(`/comments/${comment.id}/replies`, {
      comment: '   ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.comment).toEqual([THREAD_MESSAGES.writeReply]);

    // Edit own only; the comment calls do not touch replies.
    expect(
      (await scene.writer.client.put(`/comments/replies/${answer.id}`, { comment: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await scene.reader.client.put(`/comments/${answer.id}`, { comment: 'x' })).statusCode,
    ).toBe(404);
    const edited = await scene.reader.client.put(`/comments/replies/${answer.id}`, {
      comment: 'Edited reply',
    });
    expect(edited.json().reply.comment).toBe('Edited reply');

    // Delete: the writer may not delete someone else's reply, the owner may.
    expect((await scene.writer.client.delete(`/comments/replies/${answer.id}`)).statusCode).toBe(
      403,
    );
    const gone = await scene.owner.client.delete(`/comments/replies/${answer.id}`);
    expect(gone.json()).toEqual({ ok: true, id: answer.id, comment_id: comment.id });
    expect((await threadsOf(scene.owner.client, id)).replies).toEqual([]);
  });

  it('with private comments on, a reply reaches only the comment writer, the replier and the owner', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const id = scene.manuscript.id;
    const { comment } = await postComment(scene.writer.client, id, QUOTE, 'Secret note');
    // The other reader cannot see the comment's text, so cannot reply to it.
    const refused = await scene.reader.client.post(`/comments/${comment.id}/replies`, {
      comment: 'hi',
    });
    expect(refused.statusCode).toBe(403);
    const fromOwner = await reply(scene.owner.client, comment.id, 'Thanks, noted.');
    const fromWriter = await reply(scene.writer.client, comment.id, 'You are welcome.');
    expect((await threadsOf(scene.writer.client, id)).replies.map((row) => row.id)).toEqual([
      fromOwner.id,
      fromWriter.id,
    ]);
    expect((await threadsOf(scene.owner.client, id)).replies).toHaveLength(2);
    expect((await threadsOf(scene.reader.client, id)).replies).toEqual([]);

    // Votes: the comment's writer may vote on the owner's reply to it; the other reader may not.
    const vote = await scene.writer.client.post(`/comments/${fromOwner.id}/rank/up`);
    expect(vote.statusCode, vote.body).toBe(200);
    expect(vote.json().comment).toMatchObject({ rank: 1, private: false });
    expect((await scene.reader.client.post(`/comments/${fromOwner.id}/rank/up`)).statusCode).toBe(
      403,
    );
    // Reports on replies: the writer may report the owner's reply; the other reader cannot.
    const [reason] = (await scene.writer.client.get('/report/reasons')).json().reasons as Array<{
      id: number;
    }>;
    const report = (who: Scene['writer']) =>
      who.client.post('/report/', {
        model_name: 'comment',
        report_element_id: fromOwner.id,
        reason_id: reason!.id,
        reason_description: 'rude',
      });
    expect((await report(scene.writer)).statusCode).toBe(200);
    expect((await report(scene.reader)).statusCode).toBe(400);
  });

  it('notes replies for the comment writer and mails them at most hourly, by preference', async () => {
    const scene = await buildScene(test);
    const id = scene.manuscript.id;
    await test.ctx.db
      .update(schema.users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(schema.users.id, scene.writer.user.id));
    const { comment } = await postComment(scene.writer.client, id, QUOTE, 'Mail me');
    await reply(scene.writer.client, comment.id, 'My own reply: no mail');
    await reply(scene.reader.client, comment.id, 'First reply');
    await reply(scene.owner.client, comment.id, 'Second reply');
    const mailsTo = async () =>
      test.ctx.db
        .select()
        .from(schema.mailOutbox)
        .where(eq(schema.mailOutbox.to, scene.writer.user.email));
    expect(await sendReplyDigests(test.ctx)).toBeGreaterThanOrEqual(1);
    const first = await mailsTo();
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toContain('First reply');
    expect(first[0]!.text).toContain('Second reply');
    expect(first[0]!.text).not.toContain('My own reply');
    // Another reply within the hour waits for the next hour.
    await reply(scene.reader.client, comment.id, 'Third reply');
    await sendReplyDigests(test.ctx);
    expect(await mailsTo()).toHaveLength(1);
  });
});

describe('resolve', () => {
  it('is for the owner only, idempotent, and readers see it', async () => {
    const scene = await buildScene(test);
    const id = scene.manuscript.id;
    const { comment } = await postComment(scene.writer.client, id, QUOTE, 'Fix this');
    for (const who of [scene.writer, scene.reader]) {
      const refused = await who.client.post(`/comments/${comment.id}/resolve`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe(THREAD_MESSAGES.resolveOwnerOnly);
    }
    expect((await scene.anonymous.post(`/comments/${comment.id}/resolve`)).statusCode).toBe(401);
    const first = await scene.owner.client.post(`/comments/${comment.id}/resolve`);
    expect(first.statusCode).toBe(200);
    const resolvedAt = first.json().comment.resolved_at as string;
    expect(resolvedAt).toBeTruthy();
    const again = await scene.owner.client.post(`/comments/${comment.id}/resolve`);
    expect(again.json().comment.resolved_at).toBe(resolvedAt);
    const seen = (await scene.writer.client.get(`/comments/manuscript/${id}`)).json();
    expect(seen.comments[0].resolved_at).toBe(resolvedAt);
    const reopened = await scene.owner.client.delete(`/comments/${comment.id}/resolve`);
    expect(reopened.json().comment.resolved_at).toBeNull();
  });
});

describe('reactions', () => {
  it('toggle idempotently: double clicks add once and remove once', async () => {
    const scene = await buildScene(test);
    const id = scene.manuscript.id;
    const { comment } = await postComment(scene.writer.client, id, QUOTE, 'React to me');
    const url = `/comments/${comment.id}/reactions/heart`;
    const [a, b] = await Promise.all([scene.reader.client.put(url), scene.reader.client.put(url)]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual({
      comment_id: comment.id,
      reactions: [
        {
          name: 'heart',
          count: 1,
          users: [{ id: scene.reader.user.id, display_name: scene.reader.user.displayName }],
        },
      ],
    });
    await scene.owner.client.put(url);
    await scene.owner.client.put(`/comments/${comment.id}/reactions/idea`);
    const threads = await threadsOf(scene.writer.client, id);
    expect(threads.reactions[0]!.reactions.map((r) => [r.name, r.count])).toEqual([
      ['heart', 2],
      ['idea', 1],
    ]);
    await Promise.all([scene.reader.client.delete(url), scene.reader.client.delete(url)]);
    const after = (await scene.reader.client.delete(url)).json();
    expect(after.reactions).toEqual([
      expect.objectContaining({ name: 'heart', count: 1 }),
      expect.objectContaining({ name: 'idea', count: 1 }),
    ]);
    const unknown = await scene.reader.client.put(`/comments/${comment.id}/reactions/poop`);
    expect(unknown.statusCode).toBe(400);
    expect((await scene.stranger.client.put(url)).statusCode).toBe(404);
    const { client: outsider } = await sessionClient(test);
    expect((await outsider.put(url)).json().error).not.toBe(MESSAGES.serverError);
  });

  it('are hidden with the text under private comments', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Mine');
    expect(
      (await scene.reader.client.put(`/comments/${comment.id}/reactions/heart`)).statusCode,
    ).toBe(403);
    await scene.owner.client.put(`/comments/${comment.id}/reactions/heart`);
    expect((await threadsOf(scene.writer.client, scene.manuscript.id)).reactions).toHaveLength(1);
    expect((await threadsOf(scene.reader.client, scene.manuscript.id)).reactions).toEqual([]);
  });
});
