import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Bookmark } from '@margins/common';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import {
  buildAnswer,
  buildInvite,
  buildSurvey,
  getPage,
  personFor,
  type Person,
} from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { NOT_IN_READS } from './service.ts';

let test: TestApp;
let author: Person;
let reader: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
  reader = await personFor(test);
});
afterAll(async () => {
  await test?.close();
});

const newManuscript = (overrides: Parameters<typeof buildManuscript>[2] = {}) =>
  buildManuscript(test.ctx.db, author.user, { visibility: 'public', ...overrides });

describe('POST /bookmark/:manuscript_id', () => {
  it('adds a readable manuscript to the reads, once (400 the second time)', async () => {
    const manuscript = await newManuscript();
    const created = await reader.client.post(`/bookmark/${manuscript.id}`);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().bookmark).toMatchObject({
      manuscript_id: manuscript.id,
      progress: { block_idx: null, percent: null, updated: null },
      manuscript: { id: manuscript.id, title: manuscript.title },
    });
    const twice = await reader.client.post(`/bookmark/${manuscript.id}`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe(MESSAGES.bookmarkExists);
  });

  it('answers SPEC: 404 no such manuscript, 403 may not read, 401 logged out', async () => {
    const missing = await reader.client.post('/bookmark/99999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(MESSAGES.bookmarkMissing);

    const secret = await newManuscript({ visibility: 'private' });
    expect((await reader.client.post(`/bookmark/${secret.id}`)).statusCode).toBe(404);

    const gated = await newManuscript();
    await buildSurvey(test.ctx.db, gated.id);
    const forbidden = await reader.client.post(`/bookmark/${gated.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe(MESSAGES.bookmarkForbidden);

    expect((await new TestClient(test.app).post(`/bookmark/${gated.id}`)).statusCode).toBe(401);
  });
});

describe('reading progress', () => {
  it('keeps the furthest block and percentage reached', async () => {
    const manuscript = await newManuscript();
    await reader.client.post(`/bookmark/${manuscript.id}`);
    const url = `/bookmark/${manuscript.id}/progress`;
    const first = await reader.client.post(url, { block_idx: 12, percent: 40.5 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().bookmark.progress).toMatchObject({ block_idx: 12, percent: 40.5 });
    const back = await reader.client.post(url, { block_idx: 3, percent: 10 });
    expect(back.json().bookmark.progress).toMatchObject({ block_idx: 12, percent: 40.5 });
    const on = await reader.client.post(url, { block_idx: 30, percent: 90 });
    expect(on.json().bookmark.progress).toMatchObject({ block_idx: 30, percent: 90 });
    expect(on.json().bookmark.progress.updated).toEqual(expect.any(String));

    const bad = await reader.client.post(url, { block_idx: -1, percent: 101 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['block_idx', 'percent']);
  });

  it('needs a read (404), the right to read (403) and a login (401)', async () => {
    const manuscript = await newManuscript();
    const notRead = await reader.client.post(`/bookmark/${manuscript.id}/progress`, {
      block_idx: 1,
      percent: 1,
    });
    expect(notRead.statusCode).toBe(404);
    expect(notRead.json().error).toBe(NOT_IN_READS);

    const gated = await newManuscript();
    const survey = await buildSurvey(test.ctx.db, gated.id);
    await reader.client.post(`/bookmark/${gated.id}`); // refused: the gate stands
    await buildAnswer(test.ctx.db, survey.id, reader.user.id);
    const waiting = await reader.client.post(`/bookmark/${gated.id}/progress`, {
      block_idx: 1,
      percent: 1,
    });
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().error).toBe(MESSAGES.bookmarkForbidden);
    expect(
      (
        await new TestClient(test.app).post(`/bookmark/${manuscript.id}/progress`, {
          block_idx: 1,
          percent: 1,
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('the reads list', () => {
  it('lists reads with progress, newest first, and only those still open to the reader', async () => {
    const someone = await personFor(test);
    const older = await newManuscript({ title: 'Older' });
    const newer = await newManuscript({ title: 'Newer' });
    const secret = await newManuscript({ visibility: 'private', title: 'Secret' });
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: secret.id,
      invitedUserId: someone.user.id,
      status: 'pending',
    });
    await someone.client.post(`/bookmark/${older.id}`);
    await someone.client.post(`/bookmark/${newer.id}`);
    await someone.client.post(`/invite/${invite.id}/accept`);
    await someone.client.post(`/bookmark/${newer.id}/progress`, { block_idx: 2, percent: 50 });

    const list = async () =>
      ((await someone.client.get('/user/current/bookmarks')).json().bookmarks as Bookmark[]).map(
        (bookmark) => [bookmark.manuscript.title, bookmark.progress.percent],
      );
    expect(await list()).toEqual([
      ['Secret', null],
      ['Newer', 50],
      ['Older', null],
    ]);

    // Access removed: the read leaves the list (it comes back if access does).
    await author.client.delete(`/manuscript/invite/${invite.id}`);
    await author.client.delete(`/manuscript/${older.id}`);
    expect(await list()).toEqual([['Newer', 50]]);

    const removed = await someone.client.delete(`/bookmark/${newer.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await list()).toEqual([]);
    expect((await someone.client.delete(`/bookmark/${newer.id}`)).statusCode).toBe(404);
    expect((await new TestClient(test.app).delete(`/bookmark/${newer.id}`)).statusCode).toBe(401);
  });

  it('sends a browser to the dashboard, or to log in first', async () => {
    expect((await getPage(reader.client, '/user/current/bookmarks')).headers.location).toBe(
      '/dashboard#reads',
    );
    expect(
      (await getPage(new TestClient(test.app), '/user/current/bookmarks')).headers.location,
    ).toMatch(/^\/auth\/login\?next=/);
    expect((await new TestClient(test.app).get('/user/current/bookmarks')).statusCode).toBe(401);
  });

  it("shows the reader's read and progress in the reader's page data", async () => {
    const manuscript = await newManuscript();
    const before = (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).json();
    expect(before.bookmark).toBeNull();
    await reader.client.post(`/bookmark/${manuscript.id}`);
    await reader.client.post(`/bookmark/${manuscript.id}/progress`, { block_idx: 1, percent: 5 });
    const after = (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).json();
    expect(after.bookmark).toMatchObject({
      manuscript_id: manuscript.id,
      progress: { percent: 5 },
    });
  });
});
