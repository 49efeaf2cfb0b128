import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDBACK_COLUMNS, THREAD_MESSAGES, type FeedbackExport } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildScene, postComment, type Scene } from '../comments/test-helpers.ts';
import { parseCsv, readDocx } from './test-docx.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const CEDAR = 'smelled of cedar and river damp';
const BRIDGES = 'Sallow bridges three times';
const DREAM = 'as quietly as furniture in a dream';
const ORPHAN = 'The archivist kept the old charts';

/**
 * A manuscript with private comments on: two readers' comments (each private to its writer and
 * the owner), replies, a resolved thread, a moderator-hidden comment, a deleted comment and a
 * comment whose passage is no longer in the draft.
 */
async function feedbackScene() {
  const scene = await buildScene(test, { privateComments: true });
  const id = scene.manuscript.id;
  const cedar = await postComment(scene.writer.client, id, CEDAR, 'The smell, "cedar", works.');
  const bridges = await postComment(scene.reader.client, id, BRIDGES, '=SUM(A1) is not a formula');
  const dream = await postComment(scene.writer.client, id, DREAM, 'Hidden by mods');
  const deleted = await postComment(scene.reader.client, id, DREAM, 'I will delete this');
  const orphan = await postComment(scene.reader.client, id, ORPHAN, 'Cut in the new draft?');
  await scene.reader.client.delete(`/comments/${deleted.comment.id}`);
  const ownerReply = await scene.owner.client.post(`/comments/${cedar.comment.id}/replies`, {
    comment: 'Thanks, keeping it.',
  });
  const writerReply = await scene.writer.client.post(`/comments/${cedar.comment.id}/replies`, {
    comment: 'Great,\nsee you.',
  });
  await scene.owner.client.post(`/comments/${bridges.comment.id}/resolve`);
  await scene.owner.client.put(`/comments/${cedar.comment.id}/reactions/heart`);
  await test.ctx.db
    .update(schema.comments)
    .set({ moderationFlag: true, moderationReason: 'Spoilers' })
    .where(eq(schema.comments.id, dream.comment.id));
  await test.ctx.db
    .update(schema.highlights)
    .set({ orphaned: true })
    .where(eq(schema.highlights.id, orphan.highlight.selection_id));
  return {
    scene,
    cedar: cedar.comment,
    bridges: bridges.comment,
    dream: dream.comment,
    deleted: deleted.comment,
    orphan: orphan.comment,
    ownerReply: ownerReply.json().reply as { id: number },
    writerReply: writerReply.json().reply as { id: number },
  };
}

async function finishedExport(scene: Scene): Promise<FeedbackExport> {
  const id = scene.manuscript.id;
  const started = await scene.owner.client.post(`/manuscript/${id}/export/docx`);
  expect(started.statusCode, started.body).toBe(200);
  let state = started.json().export as FeedbackExport;
  const deadline = Date.now() + 60_000;
  while (state.status !== 'done' && state.status !== 'failed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = (await scene.owner.client.get(`/manuscript/${id}/export/${state.id}`)).json().export;
  }
  expect(state.status).toBe('done');
  return state;
}

describe('feedback export', () => {
  it('is for the owner only', async () => {
    const scene = await buildScene(test);
    const id = scene.manuscript.id;
    const reader = await scene.reader.client.post(`/manuscript/${id}/export/docx`);
    expect(reader.statusCode).toBe(403);
    expect(reader.json().error).toBe(THREAD_MESSAGES.exportOwnerOnly);
    expect(
      (await scene.reader.client.get(`/manuscript/${id}/export/feedback/csv`)).statusCode,
    ).toBe(403);
    expect((await scene.stranger.client.post(`/manuscript/${id}/export/docx`)).statusCode).toBe(
      404,
    );
    expect((await scene.anonymous.get(`/manuscript/${id}/export/feedback/json`)).statusCode).toBe(
      401,
    );
    const unknown = await scene.owner.client.get(`/manuscript/${id}/export/feedback/xlsx`);
    expect(unknown.statusCode).toBe(400);
  });

  it('writes every comment and reply as a Word comment anchored on its passage', async () => {
    const made = await feedbackScene();
    const { scene } = made;
    const state = await finishedExport(scene);
    expect(state.file_name).toMatch(/feedback\.docx$/);
    const download = await scene.owner.client.get(
      `/manuscript/${scene.manuscript.id}/export/${state.id}/download`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    const docx = readDocx(new Uint8Array(download.rawPayload));
    const byText = new Map(
      [...docx.comments.values()].map((comment) => [
        comment.text
          .split('\n')
          .filter(
            (l) =>
              !l.startsWith('[') &&
              !l.startsWith('Votes') &&
              !/^\p{Extended_Pictographic}/u.test(l),
          )
          .join('\n'),
        comment,
      ]),
    );
    const find = (text: string) => {
      const found = byText.get(text);
      expect(found, `a Word comment "${text}"`).toBeDefined();
      return found!;
    };
    // Every live comment and reply, private ones included (the owner sees them all).
    const cedar = find('The smell, "cedar", works.');
    const bridges = find('=SUM(A1) is not a formula');
    const dream = find('Hidden by mods');
    const orphan = find('Cut in the new draft?');
    const ownerReply = find('Thanks, keeping it.');
    const writerReply = find('Great,\nsee you.');
    expect(docx.comments.size).toBe(6);
    expect(docx.files['word/comments.xml']).not.toContain('I will delete this');
    // Anchored on exactly the highlighted text; replies on the same passage, threaded.
    expect(docx.anchored.get(cedar.id)).toBe(CEDAR);
    expect(docx.anchored.get(bridges.id)).toBe(BRIDGES);
    expect(docx.anchored.get(dream.id)).toBe(DREAM);
    expect(docx.anchored.get(ownerReply.id)).toBe(CEDAR);
    expect(ownerReply.parentId).toBe(cedar.id);
    expect(writerReply.parentId).toBe(cedar.id);
    expect(cedar.parentId).toBeNull();
    // Names and dates kept; resolved marked done; moderation marked, not dropped.
    expect(cedar.author).toBe(scene.writer.user.displayName);
    expect(ownerReply.author).toBe(scene.owner.user.displayName);
    expect(cedar.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(bridges.done).toBe(true);
    expect(cedar.done).toBe(false);
    expect(docx.files['word/comments.xml']).toContain(
      `[${THREAD_MESSAGES.hiddenByModerators}: Spoilers]`,
    );
    // The orphan is in the appendix, anchored on its quote after the heading.
    expect(docx.anchored.get(orphan.id)).toBe(ORPHAN);
    const appendix = docx.text.indexOf(THREAD_MESSAGES.orphanedAppendix);
    expect(appendix).toBeGreaterThan(docx.text.indexOf('furniture in a dream'));
    expect(docx.text.slice(appendix)).toContain(ORPHAN);
    // Never an e-mail address, anywhere in the file.
    const everything = Object.values(docx.files).join('\n');
    for (const person of [scene.owner, scene.writer, scene.reader]) {
      expect(everything).not.toContain(person.user.email);
    }
  });

  it('gives one CSV and JSON row per comment and reply, read back intact', async () => {
    const made = await feedbackScene();
    const { scene } = made;
    const id = scene.manuscript.id;
    const csv = await scene.owner.client.get(`/manuscript/${id}/export/feedback/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = parseCsv(csv.body);
    expect(header).toEqual(FEEDBACK_COLUMNS);
    const records = rows.map((cells) =>
      Object.fromEntries(header!.map((name, i) => [name, cells[i]])),
    );
    expect(records.map((row) => [row.kind, row.text])).toEqual([
      ['comment', 'The smell, "cedar", works.'],
      ['reply', 'Thanks, keeping it.'],
      ['reply', 'Great,\nsee you.'],
      ['comment', "'=SUM(A1) is not a formula"],
      ['comment', 'Hidden by mods'],
      ['comment', 'Cut in the new draft?'],
    ]);
    const cedar = records[0]!;
    expect(cedar).toMatchObject({
      chapter: 'Chapter One',
      quote: CEDAR,
      author: scene.writer.user.displayName,
      reactions: '❤️ 1',
      resolved: 'false',
      orphaned: 'false',
    });
    expect(records[3]).toMatchObject({ resolved: 'true', quote: BRIDGES });
    expect(records[4]).toMatchObject({ moderation_hidden: 'true', moderation_reason: 'Spoilers' });
    expect(records[5]).toMatchObject({ orphaned: 'true', quote: ORPHAN });
    expect(csv.body).not.toContain('I will delete this');
    for (const person of [scene.owner, scene.writer, scene.reader]) {
      expect(csv.body).not.toContain(person.user.email);
    }
    const json = await scene.owner.client.get(`/manuscript/${id}/export/feedback/json`);
    const list = json.json() as Array<Record<string, unknown>>;
    expect(list.map((row) => row.text)).toEqual(
      records.map((row) => String(row.text).replace(/^'=/, '=')),
    );
    expect(list[1]).toMatchObject({
      kind: 'reply',
      thread_id: made.cedar.id,
      id: made.ownerReply.id,
    });
  });
});
