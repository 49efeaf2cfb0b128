import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMENT_MESSAGES,
  MESSAGES,
  type Comment,
  type CommentListResponse,
} from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { postFile, waitForState } from '../manuscripts/test-helpers.ts';
import {
  buildScene,
  newSelectionId,
  postComment,
  revokeReader,
  selectionOf,
  sessionClient,
  WITHHELD_HIGHLIGHT,
  type Scene,
} from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
});
afterAll(async () => {
  await test?.close();
});

const QUOTE = 'smelled of cedar and river damp';
const LATER_QUOTE = 'as quietly as furniture in a dream';
const SECRET = 'A secret note only the author may read';

async function list(client: Scene['owner']['client'], manuscriptId: number, since?: string) {
  const response = await client.get(
    `/comments/manuscript/${manuscriptId}${since ? `?since=${encodeURIComponent(since)}` : ''}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CommentListResponse;
}

describe('commenting over HTTP', () => {
  it('creates the highlight with the comment, anchored by the server', async () => {
    const scene = await buildScene(test);
    const selectionId = newSelectionId();
    const response = await scene.writer.client.post(`/comments/manuscript/${scene.manuscript.id}`, {
      highlight: { selection_id: selectionId, ...selectionOf(QUOTE), colour: 3 },
      comment: '  Lovely smell.  ',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.deleted).toBe(false);
    expect(body.comment).toMatchObject({
      manuscript_id: scene.manuscript.id,
      author_id: scene.writer.user.id,
      author: { id: scene.writer.user.id, display_name: scene.writer.user.displayName },
      comment: 'Lovely smell.',
      private: false,
      selection_id: selectionId,
      rank: 0,
      my_vote: 0,
      moderation_flag: false,
      moderation_reason: null,
    });
    expect(body.highlight).toMatchObject({
      selection_id: selectionId,
      block_id: 'b-p1-0',
      selectedText: QUOTE,
      colour: 3,
      orphaned: false,
      quote: {
        exact: QUOTE,
        prefix: ' the old charts in drawers that ',
        suffix: '.\nMaren had drawn the Sallow bri',
      },
    });
    expect(body.comment.author).not.toHaveProperty('email');

    // A second comment on the same highlight needs only its selection_id.
    const reply = await scene.owner.client.post(`/comments/manuscript/${scene.manuscript.id}`, {
      highlight: { selection_id: selectionId },
      comment: 'Thank you!',
    });
    expect(reply.statusCode, reply.body).toBe(200);

    const listed = await list(scene.reader.client, scene.manuscript.id);
    expect(listed.highlights.map((highlight) => highlight.selection_id)).toEqual([selectionId]);
    expect(listed.comments.map((comment) => comment.comment)).toEqual([
      'Lovely smell.',
      'Thank you!',
    ]);
    expect(listed.deleted).toEqual({ comments: [], highlights: [] });

    const selection = await scene.reader.client.get(`/comments/selection/${selectionId}`);
    expect(selection.statusCode).toBe(200);
    expect(selection.json().comments).toHaveLength(2);
    expect(selection.json().highlight.selection_id).toBe(selectionId);
  });

  it('refuses a selection outside the manuscript text, or a new highlight without its range', async () => {
    const scene = await buildScene(test);
    const outside = await scene.writer.client.post(`/comments/manuscript/${scene.manuscript.id}`, {
      highlight: {
        selection_id: newSelectionId(),
        ...selectionOf(QUOTE),
        start: undefined,
        end: undefined,
        selectedText: 'Save or close the open comment first.',
      },
      comment: 'Hello',
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors).toEqual({ highlight: [COMMENT_MESSAGES.selectionOutside] });

    const noRange = await scene.writer.client.post(`/comments/manuscript/${scene.manuscript.id}`, {
      highlight: { selection_id: newSelectionId() },
      comment: 'Hello',
    });
    expect(noRange.statusCode).toBe(400);
    expect(noRange.json().errors).toEqual({ highlight: [COMMENT_MESSAGES.selectionMissing] });

    const badId = await scene.writer.client.post(`/comments/manuscript/${scene.manuscript.id}`, {
      highlight: { selection_id: 'x', ...selectionOf(QUOTE) },
      comment: 'Hello',
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().errors.highlight).toBeDefined();

    // Someone else's selection id cannot be taken over.
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Mine');
    const [other] = await Promise.all([buildScene(test)]);
    const stolen = await other!.writer.client.post(`/comments/manuscript/${other!.manuscript.id}`, {
      highlight: { selection_id: comment.selection_id, ...selectionOf(QUOTE) },
      comment: 'Hijack',
    });
    expect(stolen.statusCode).toBe(404);
  });

  it('treats a retried highlight as the same one (no duplicates)', async () => {
    const scene = await buildScene(test);
    const selectionId = newSelectionId();
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await scene.writer.client.post(
        `/comments/manuscript/${scene.manuscript.id}`,
        {
          highlight: { selection_id: selectionId, ...selectionOf(QUOTE) },
          comment: `Attempt ${attempt}`,
        },
      );
      expect(response.statusCode).toBe(200);
    }
    const listed = await list(scene.owner.client, scene.manuscript.id);
    expect(listed.highlights).toHaveLength(1);
    expect(listed.comments).toHaveLength(2);
  });

  it('edits, and deletes on a blank save; cancelling a new comment removes its unused highlight', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'First');
    const edited = await scene.writer.client.put(`/comments/${comment.id}`, { comment: 'Second' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().comment.comment).toBe('Second');

    const blank = await scene.writer.client.put(`/comments/${comment.id}`, { comment: '   ' });
    expect(blank.statusCode).toBe(200);
    expect(blank.json()).toMatchObject({ comment: null, deleted: true, highlight_removed: true });
    expect((await list(scene.owner.client, scene.manuscript.id)).highlights).toHaveLength(0);

    // The "cancel" of a new comment: a blank save for a highlight made just for it.
    const selectionId = newSelectionId();
    const highlight = await scene.writer.client.post(
      `/comments/manuscript/${scene.manuscript.id}`,
      {
        highlight: { selection_id: selectionId, ...selectionOf(LATER_QUOTE) },
        comment: '',
      },
    );
    expect(highlight.statusCode).toBe(200);
    expect(highlight.json()).toMatchObject({
      comment: null,
      deleted: true,
      highlight_removed: false,
    });
    expect((await list(scene.owner.client, scene.manuscript.id)).highlights).toHaveLength(0);
  });

  it('orders comments by their place in the text, then by rank', async () => {
    const scene = await buildScene(test);
    const later = await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Later');
    const earlyLow = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Early low',
    );
    const earlyHigh = await scene.reader.client.post(
      `/comments/manuscript/${scene.manuscript.id}`,
      {
        highlight: { selection_id: earlyLow.comment.selection_id },
        comment: 'Early high',
      },
    );
    await scene.owner.client.post(`/comments/${earlyHigh.json().comment.id}/rank/up`);
    const listed = await list(scene.owner.client, scene.manuscript.id);
    expect(listed.comments.map((comment) => comment.comment)).toEqual([
      'Early high',
      'Early low',
      'Later',
    ]);
    expect(listed.highlights.map((highlight) => highlight.selection_id)).toEqual([
      earlyLow.comment.selection_id,
      later.comment.selection_id,
    ]);
  });
});

describe('votes', () => {
  it('keeps one vote per user: the same way again keeps it, the other way changes it', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Vote on me',
    );
    const rank = async (client: Scene['owner']['client'], dir: 'up' | 'down') => {
      const response = await client.post(`/comments/${comment.id}/rank/${dir}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().comment as Comment;
    };
    expect(await rank(scene.reader.client, 'up')).toMatchObject({ rank: 1, my_vote: 1 });
    expect(await rank(scene.reader.client, 'up')).toMatchObject({ rank: 1, my_vote: 1 });
    expect(await rank(scene.owner.client, 'up')).toMatchObject({ rank: 2, my_vote: 1 });
    expect(await rank(scene.reader.client, 'down')).toMatchObject({ rank: 0, my_vote: -1 });
    const rows = await test.ctx.db
      .select()
      .from(schema.commentVotes)
      .where(eq(schema.commentVotes.commentId, comment.id));
    expect(rows).toHaveLength(2);

    const own = await scene.writer.client.post(`/comments/${comment.id}/rank/up`);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(COMMENT_MESSAGES.ownVote);
    const listed = await list(scene.reader.client, scene.manuscript.id);
    expect(listed.comments[0]).toMatchObject({ rank: 0, my_vote: -1 });
    expect((await list(scene.writer.client, scene.manuscript.id)).comments[0]!.my_vote).toBe(0);
  });

  it('counts every vote when many arrive at once', async () => {
    const scene = await buildScene(test, { visibility: 'logged_in' });
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Popular',
    );
    const voters = await Promise.all(
      Array.from({ length: 6 }, async () => (await sessionClient(test)).client),
    );
    const answers = await Promise.all(
      voters.map((client) => client.post(`/comments/${comment.id}/rank/up`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(voters.map(() => 200));
    const [row] = await test.ctx.db
      .select({ rank: schema.comments.rank })
      .from(schema.comments)
      .where(eq(schema.comments.id, comment.id));
    expect(row!.rank).toBe(6);
  });
});

type Role = 'owner' | 'writer' | 'reader' | 'stranger' | 'anonymous';
const ROLES: Role[] = ['owner', 'writer', 'reader', 'stranger', 'anonymous'];
const clientOf = (scene: Scene, role: Role) =>
  role === 'anonymous' ? scene.anonymous : scene[role].client;

describe('who may do what (HTTP), per action and role', () => {
  // Expected status per role, on a restricted manuscript where writer and reader are invited.
  const TABLE: Record<string, Record<Role, number>> = {
    list: { owner: 200, writer: 200, reader: 200, stranger: 404, anonymous: 404 },
    selection: { owner: 200, writer: 200, reader: 200, stranger: 404, anonymous: 404 },
    create: { owner: 200, writer: 200, reader: 200, stranger: 404, anonymous: 401 },
    update: { owner: 403, writer: 200, reader: 403, stranger: 404, anonymous: 401 },
    delete: { owner: 200, writer: 200, reader: 403, stranger: 404, anonymous: 401 },
    rank: { owner: 200, writer: 403, reader: 200, stranger: 404, anonymous: 401 },
  };
  for (const [action, expected] of Object.entries(TABLE)) {
    for (const role of ROLES) {
      it(`${action} as ${role}: ${expected[role]}`, async () => {
        const scene = await buildScene(test);
        const { comment } = await postComment(
          scene.writer.client,
          scene.manuscript.id,
          QUOTE,
          'Hi',
        );
        const client = clientOf(scene, role);
        const id = scene.manuscript.id;
        const response = await {
          list: () => client.get(`/comments/manuscript/${id}`),
          selection: () => client.get(`/comments/selection/${comment.selection_id}`),
          create: () =>
            client.post(`/comments/manuscript/${id}`, {
              highlight: { selection_id: newSelectionId(), ...selectionOf(LATER_QUOTE) },
              comment: 'Mine',
            }),
          update: () => client.put(`/comments/${comment.id}`, { comment: 'Changed' }),
          delete: () => client.delete(`/comments/${comment.id}`),
          rank: () => client.post(`/comments/${comment.id}/rank/up`),
        }[action]!();
        expect(response.statusCode, response.body).toBe(expected[role]);
        if (expected[role] !== 200) expect(response.json().error).toEqual(expect.any(String));
      });
    }
  }

  it('refuses a reader whose access was revoked, on the very next call', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(scene.reader.client, scene.manuscript.id, QUOTE, 'Mine');
    await revokeReader(test.ctx.db, scene.manuscript.id, scene.reader.user.id);
    expect(
      (await scene.reader.client.put(`/comments/${comment.id}`, { comment: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)).statusCode,
    ).toBe(404);
  });

  it('hides the comments of a mature manuscript until the reader certifies 18+', async () => {
    const scene = await buildScene(test, { nsfw: true });
    const gated = await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`);
    expect(gated.statusCode).toBe(403);
    expect(gated.json().error).toBe(COMMENT_MESSAGES.matureGate);
    await test.ctx.db
      .update(schema.users)
      .set({ certified18At: new Date() })
      .where(eq(schema.users.id, scene.reader.user.id));
    expect(
      (await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)).statusCode,
    ).toBe(200);
  });

  it('needs the CSRF header on writes', async () => {
    const scene = await buildScene(test);
    const response = await scene.writer.client.post(
      `/comments/manuscript/${scene.manuscript.id}`,
      { highlight: { selection_id: newSelectionId(), ...selectionOf(QUOTE) }, comment: 'x' },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
  });
});

describe('private comments', () => {
  it('give the text only to its writer and the owner, by every HTTP path', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const posted = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, SECRET);
    expect(posted.comment.comment).toBe(SECRET);
    const id = scene.manuscript.id;
    const paths = [
      `/comments/manuscript/${id}`,
      `/comments/manuscript/${id}?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`,
      `/comments/selection/${posted.comment.selection_id}`,
    ];
    for (const path of paths) {
      for (const insider of [scene.owner, scene.writer]) {
        const body = (await insider.client.get(path)).body;
        expect(body).toContain(SECRET);
        expect(body).toContain(QUOTE);
      }
      const third = await scene.reader.client.get(path);
      expect(third.statusCode).toBe(200);
      expect(third.body).not.toContain(SECRET);
      expect(third.body).not.toContain(QUOTE);
      expect(third.body).toContain(MESSAGES.privateComments);
    }
    const listed = await list(scene.reader.client, id);
    expect(listed.comments[0]).toMatchObject({ private: true, comment: MESSAGES.privateComments });
    // Nor where it is: with its offsets, the reader's own copy of the text gives the quote back.
    expect(listed.highlights[0]).toEqual(expect.objectContaining(WITHHELD_HIGHLIGHT));
    const selection = await scene.reader.client.get(
      `/comments/selection/${posted.comment.selection_id}`,
    );
    expect(selection.json().highlight).toEqual(expect.objectContaining(WITHHELD_HIGHLIGHT));
    const insiderView = await list(scene.writer.client, id);
    expect(insiderView.highlights[0]).toMatchObject({ private: false, start: expect.any(Number) });

    // The third reader's own comment: theirs to read; and they cannot vote on or report the hidden one.
    const own = await postComment(scene.reader.client, id, LATER_QUOTE, 'My own thought');
    expect(own.comment.comment).toBe('My own thought');
    // Listed after the reader's own, later in the text: document order would place it.
    const both = await list(scene.reader.client, id);
    expect(both.highlights.map((highlight) => highlight.private)).toEqual([false, true]);
    expect(both.comments.map((comment) => comment.private)).toEqual([false, true]);
    const byOwner = await list(scene.owner.client, id);
    expect(byOwner.highlights.map((highlight) => highlight.selection_id)).toEqual([
      posted.comment.selection_id,
      own.comment.selection_id,
    ]);
    expect(
      (await scene.reader.client.post(`/comments/${posted.comment.id}/rank/up`)).statusCode,
    ).toBe(403);
    const report = await scene.reader.client.post('/report/', {
      model_name: 'comment',
      report_element_id: posted.comment.id,
      reason_id: 1,
    });
    expect(report.statusCode).toBe(400);
    // The writer does not see the third reader's text either.
    expect((await scene.writer.client.get(`/comments/manuscript/${id}`)).body).not.toContain(
      'My own thought',
    );
  });

  it('show the moderation flag and reason to everyone, so the client hides the text', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Rude words',
    );
    await test.ctx.db
      .update(schema.comments)
      .set({ moderationFlag: true, moderationReason: 'Insulting' })
      .where(eq(schema.comments.id, comment.id));
    const listed = await list(scene.reader.client, scene.manuscript.id);
    expect(listed.comments[0]).toMatchObject({
      moderation_flag: true,
      moderation_reason: 'Insulting',
    });
  });
});

describe('catching up after a reconnect', () => {
  it('answers only what changed since the cursor, with tombstones for deletions', async () => {
    const scene = await buildScene(test);
    const first = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Before');
    const before = await list(scene.reader.client, scene.manuscript.id);
    const cursor = before.cursor;
    expect(new Date(cursor).getTime()).toBeLessThan(Date.now());

    const second = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      LATER_QUOTE,
      'After',
    );
    await scene.writer.client.delete(`/comments/${first.comment.id}`);

    const since = await list(scene.reader.client, scene.manuscript.id, cursor);
    expect(since.comments.map((comment) => comment.id)).toContain(second.comment.id);
    expect(since.deleted.comments).toContain(first.comment.id);
    expect(since.deleted.highlights).toContain(first.comment.selection_id);
    expect(since.highlights.map((highlight) => highlight.selection_id)).toContain(
      second.comment.selection_id,
    );
    // Merging by id: nothing in both lists.
    const live = new Set(since.comments.map((comment) => comment.id));
    expect(since.deleted.comments.some((id) => live.has(id))).toBe(false);

    const bad = await scene.reader.client.get(
      `/comments/manuscript/${scene.manuscript.id}?since=yesterday`,
    );
    expect(bad.statusCode).toBe(400);
  });
});

describe('reports', () => {
  it('lists the reasons, and takes a report of someone else’s comment', async () => {
    const reasons = await test.app.inject({ method: 'GET', url: '/report/reasons' });
    expect(reasons.statusCode).toBe(200);
    const list = reasons.json().reasons as Array<{
      id: number;
      reason: string;
      description_required: boolean;
    }>;
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list.at(-1)).toMatchObject({ reason: 'Something else', description_required: true });

    const scene = await buildScene(test);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Spammy',
    );
    const body = { model_name: 'comment', report_element_id: comment.id, reason_id: list[0]!.id };
    const response = await scene.reader.client.post('/report/', body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, message: MESSAGES.reportSubmitted });
    // Reporting again updates the one report.
    await scene.reader.client.post('/report/', {
      ...body,
      reason_id: list[1]!.id,
      reason_description: 'More',
    });
    const rows = await test.ctx.db
      .select()
      .from(schema.reports)
      .where(eq(schema.reports.reporterId, scene.reader.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      modelName: 'comment',
      reportElementId: comment.id,
      reasonId: list[1]!.id,
      reasonDescription: 'More',
      status: 'open',
    });
    // The manuscript itself can be reported too, by a reader; not by its author.
    const manuscriptReport = {
      model_name: 'manuscript',
      report_element_id: scene.manuscript.id,
      reason_id: list[0]!.id,
    };
    expect((await scene.reader.client.post('/report/', manuscriptReport)).statusCode).toBe(200);
    const own = await scene.owner.client.post('/report/', manuscriptReport);
    expect(own.statusCode).toBe(400);
    expect(own.json().errors).toEqual({
      report_element_id: [COMMENT_MESSAGES.reportOwnManuscript],
    });
  });

  it('answers 400 "Please check your fields" with the errors map', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Mine');
    const reasons = (await test.app.inject({ method: 'GET', url: '/report/reasons' })).json()
      .reasons;
    const other = reasons.find(
      (reason: { description_required: boolean }) => reason.description_required,
    );
    const cases: Array<[unknown, string]> = [
      [
        { model_name: 'comment', report_element_id: comment.id, reason_id: reasons[0].id },
        'report_element_id',
      ],
      [
        { model_name: 'nonsense', report_element_id: comment.id, reason_id: reasons[0].id },
        'model_name',
      ],
      [{ model_name: 'comment', report_element_id: comment.id }, 'reason_id'],
      [{ model_name: 'comment', report_element_id: comment.id, reason_id: 999_999 }, 'reason_id'],
      [
        { model_name: 'comment', report_element_id: comment.id, reason_id: other.id },
        'reason_description',
      ],
      [
        { model_name: 'comment', report_element_id: 999_999, reason_id: reasons[0].id },
        'report_element_id',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await scene.writer.client.post('/report/', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe(MESSAGES.pleaseCheckFields);
      expect(Object.keys(response.json().errors)).toContain(field);
    }
    // Their own comment: refused with the reason in errors.
    const own = await scene.writer.client.post('/report/', cases[0]![0]);
    expect(own.json().errors.report_element_id).toEqual([COMMENT_MESSAGES.reportOwn]);
    // A stranger cannot tell whether the comment exists.
    const stranger = await scene.stranger.client.post('/report/', {
      model_name: 'comment',
      report_element_id: comment.id,
      reason_id: reasons[0].id,
    });
    expect(stranger.json().errors).toEqual({ report_element_id: [COMMENT_MESSAGES.reportMissing] });
    expect((await scene.anonymous.post('/report/', cases[0]![0])).statusCode).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes the comment and report calls from their schemas', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/comments/manuscript/{manuscript_id}',
        '/comments/selection/{selection_id}',
        '/comments/{comment_id}',
        '/comments/{comment_id}/rank/{dir}',
        '/report/reasons',
        '/report/',
      ]),
    );
    expect(paths['/comments/{comment_id}']).toHaveProperty('put');
    expect(paths['/comments/{comment_id}']).toHaveProperty('delete');
  });
});

describe('the manuscript cards', () => {
  it('count the live comments', async () => {
    const scene = await buildScene(test);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'One');
    await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Two');
    await scene.writer.client.delete(`/comments/${comment.id}`);
    const summary = await scene.reader.client.get(`/manuscript/${scene.manuscript.id}/summary`);
    expect(summary.json().manuscript.comment_count).toBe(1);
  });
});

describe('a new draft', () => {
  it('re-anchors the highlights: kept, moved by an edit, or orphaned with their quote', async () => {
    const { client: author } = await sessionClient(test);
    const reader = await sessionClient(test);
    const text = (paragraphs: string[]) =>
      ['# Chapter One', '', ...paragraphs.flatMap((p) => [p, ''])].join('\n');
    const paragraphs = [
      'The archivist kept the old charts in drawers that smelled of cedar and river damp.',
      'Maren had drawn the Sallow bridges three times, and each time the lamp-black had dried pale as milk.',
      'By night the streets had rearranged themselves again, as quietly as furniture in a dream.',
    ];
    const upload = await postFile(author, '/manuscript/document', 'draft.md', text(paragraphs), {
      title: 'Drafts',
      visibility: 'logged_in',
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const state = await waitForState(author, upload.json().process_id);
    expect(state.status).toBe('SUCCESS');
    const manuscriptId = upload.json().manuscript.id as number;
    const html = (await reader.client.get(`/manuscript/document/reader/${manuscriptId}`)).json()
      .html as string;

    const quotes = [
      'river damp',
      'the Sallow bridges three times',
      'as quietly as furniture in a dream',
    ];
    for (const quote of quotes) {
      const response = await reader.client.post(`/comments/manuscript/${manuscriptId}`, {
        highlight: { selection_id: newSelectionId(), ...selectionOf(quote, html) },
        comment: `About "${quote}"`,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const next = [
      'A new opening paragraph for the second draft.',
      paragraphs[0]!,
      'By night the streets had rearranged themselves again, as quietly as the furniture in a dream.',
    ];
    const draft = await postFile(
      author,
      `/manuscript/${manuscriptId}/document`,
      'draft-2.md',
      text(next),
    );
    expect(draft.statusCode, draft.body).toBe(200);
    expect((await waitForState(author, draft.json().process_id)).status).toBe('SUCCESS');

    const listed = await list(reader.client, manuscriptId);
    const byQuote = new Map(
      listed.highlights.map((highlight) => [highlight.selectedText, highlight]),
    );
    expect(byQuote.get('river damp')).toMatchObject({
      orphaned: false,
      quote: { exact: 'river damp' },
    });
    expect(byQuote.get('as quietly as furniture in a dream')).toMatchObject({
      orphaned: false,
      quote: { exact: expect.stringMatching(/as quietly as the furniture in a dream/) },
    });
    const orphan = byQuote.get('the Sallow bridges three times')!;
    expect(orphan.orphaned).toBe(true);
    expect(orphan.quote.exact).toBe('the Sallow bridges three times');
    // Orphans come last; every comment is still there.
    expect(listed.highlights.at(-1)!.orphaned).toBe(true);
    expect(listed.comments).toHaveLength(3);
  });
});
