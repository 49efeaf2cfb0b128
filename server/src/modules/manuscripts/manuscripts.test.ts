import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVITE_TYPES, MESSAGES, type InviteType, type PageConfig } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import type { UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildGenres, buildUser, loggedInClient } from '../../test/factories.ts';
import { STILL_INKING_MESSAGE } from './upload.ts';
import { buildReport } from '../moderation/test-helpers.ts';
import { buildManuscript, multipartBody, postFile, waitForState } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
});
afterAll(async () => {
  await test?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const HTML = { accept: 'text/html' };

/** The page configuration injected into an HTML page. */
function pageConfigOf(response: LightMyRequestResponse): PageConfig {
  const match = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(
    response.body,
  );
  if (!match) throw new Error(`no page config in ${response.body.slice(0, 200)}`);
  return JSON.parse(match[1]!) as PageConfig;
}

/** A manuscript image stored as the conversion job stores it. */
async function addImage(manuscriptId: number, ownerId: number): Promise<string> {
  const id = `img${manuscriptId}-${Date.now()}`;
  await test.ctx.db.insert(schema.media).values({
    id,
    ownerId,
    manuscriptId,
    contentType: 'image/png',
    byteSize: 8,
    data: Buffer.from('89504e470d0a1a0a', 'hex'),
  });
  return id;
}

describe('the edit form', () => {
  it('saves JSON and multipart edits; fields left out keep their value', async () => {
    const { client, user } = await loggedInClient(test);
    const manuscript = await buildManuscript(test.ctx.db, user, { summary: 'Old summary.' });
    const genres = await buildGenres(test.ctx.db, `fiction-${Date.now()}`, ['Gothic', 'Noir']);

    const json = await client.post(`/manuscript/${manuscript.id}/edit`, {
      title: '  The Cartographer  ',
      visibility: 'logged_in',
      nsfw: true,
      genre_ids: [genres[1]!.id, genres[0]!.id],
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().manuscript).toMatchObject({
      id: manuscript.id,
      title: 'The Cartographer',
      summary: 'Old summary.',
      visibility: 'logged_in',
      nsfw: true,
      category: 'fiction',
      genres: [
        { id: genres[0]!.id, name: 'Gothic' },
        { id: genres[1]!.id, name: 'Noir' },
      ],
      genre_ids: [genres[0]!.id, genres[1]!.id],
    });

    const { payload, headers } = multipartBody({
      summary: 'New summary.',
      nsfw: 'false',
      private_comments: 'on',
      approvals_required: 'true',
      category: 'poetry',
      genre_ids: '',
    });
    const form = await client.request({
      method: 'POST',
      url: `/manuscript/${manuscript.id}/edit`,
      payload,
      headers,
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().manuscript).toMatchObject({
      title: 'The Cartographer',
      summary: 'New summary.',
      nsfw: false,
      private_comments: true,
      approvals_required: true,
      category: 'poetry',
      genres: [],
      genre_ids: [],
    });
  });

  it('answers 400 with an error per bad field', async () => {
    const { client, user } = await loggedInClient(test);
    const manuscript = await buildManuscript(test.ctx.db, user);
    const response = await client.post(`/manuscript/${manuscript.id}/edit`, {
      title: '   ',
      summary: 'x'.repeat(2001),
      visibility: 'secret',
      category: 'sci-fi',
      nsfw: 'maybe',
      genre_ids: ['abc'],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe(MESSAGES.checkFormFields);
    expect(Object.keys(body.errors).sort()).toEqual([
      'category',
      'genre_ids',
      'nsfw',
      'summary',
      'title',
      'visibility',
    ]);
    expect(body.errors.title).toEqual(['Enter a title.']);
    expect(body.errors.genre_ids).toEqual(['Choose genres from the list.']);

    const unknownGenre = await client.post(`/manuscript/${manuscript.id}/edit`, {
      genre_ids: [2_000_000],
    });
    expect(unknownGenre.statusCode).toBe(400);
    expect(unknownGenre.json().errors).toEqual({ genre_ids: ['Choose genres from the list.'] });
    const [unchanged] = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, manuscript.id));
    expect(unchanged!.title).toBe(manuscript.title);
  });
});

describe("other people's manuscripts", () => {
  it('answers 404 to edit, new draft, archive and the state call of another user', async () => {
    const { client: author, user } = await loggedInClient(test);
    const upload = await postFile(author, '/manuscript/document', 'mine.md', '# Mine\n\nText.');
    const { manuscript, process_id: processId } = upload.json();
    await waitForState(author, processId);
    const { client: stranger } = await loggedInClient(test);

    const responses = [
      await stranger.post(`/manuscript/${manuscript.id}/edit`, { title: 'Stolen' }),
      await postFile(stranger, `/manuscript/${manuscript.id}/document`, 'x.md', '# X'),
      await stranger.delete(`/manuscript/${manuscript.id}`),
      await stranger.get(`/manuscript/document/state/${processId}`),
      await stranger.post('/manuscript/999999/edit', { title: 'Nothing' }),
    ];
    expect(responses.map((response) => response.statusCode)).toEqual([404, 404, 404, 404, 404]);
    for (const response of responses) expect(response.json().error).toBe(MESSAGES.notFound);

    const anonymous = new TestClient(test.app);
    expect((await anonymous.delete(`/manuscript/${manuscript.id}`)).statusCode).toBe(401);
    expect((await anonymous.get(`/manuscript/document/state/${processId}`)).statusCode).toBe(401);

    const [row] = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, manuscript.id));
    expect(row).toMatchObject({ title: 'Mine', archivedAt: null, userId: user.id });
  });
});

describe('archiving', () => {
  it('hides the manuscript from lists and the reader but keeps the row', async () => {
    const { client, user } = await loggedInClient(test);
    const kept = await buildManuscript(test.ctx.db, user, { title: 'Kept', visibility: 'public' });
    const gone = await buildManuscript(test.ctx.db, user, { title: 'Gone', visibility: 'public' });

    const response = await client.delete(`/manuscript/${gone.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    const list = await client.get('/user/current/manuscripts');
    expect(list.json().manuscripts.map((m: { id: number }) => m.id)).toEqual([kept.id]);
    const page = await client.get('/dashboard', { headers: HTML });
    const data = pageConfigOf(page).data as { manuscripts: Array<{ id: number }> };
    expect(data.manuscripts.map((m) => m.id)).toEqual([kept.id]);

    expect((await client.get(`/manuscript/document/reader/${gone.id}`)).statusCode).toBe(404);
    expect((await client.get(`/manuscript/${gone.id}/summary`)).statusCode).toBe(404);
    expect((await client.post(`/manuscript/${gone.id}/edit`, { title: 'x' })).statusCode).toBe(404);
    expect((await client.delete(`/manuscript/${gone.id}`)).statusCode).toBe(404);
    const stranger = new TestClient(test.app);
    expect((await stranger.get(`/manuscript/document/reader/${gone.id}`)).statusCode).toBe(404);

    const [row] = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, gone.id));
    expect(row!.archivedAt).toBeInstanceOf(Date);

    // Admins open an archived manuscript only while a report on it is open.
    const admin = await buildUser(test.ctx.db, { role: 'admin' });
    const { client: adminClient } = await loggedInClient(test, admin);
    expect((await adminClient.get(`/manuscript/document/reader/${gone.id}`)).statusCode).toBe(404);
    await buildReport(test.ctx.db, { model: 'manuscript', elementId: gone.id });
    expect((await adminClient.get(`/manuscript/document/reader/${gone.id}`)).statusCode).toBe(200);
  });
});

describe('new drafts', () => {
  it('converts a new draft as a new version and keeps the previous one', async () => {
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'draft1.md', '# One\n\nFirst.');
    const id = upload.json().manuscript.id as number;
    await waitForState(client, upload.json().process_id);

    // Hold the conversion until the second upload has been tried.
    const converter = test.ctx.converter;
    const convert = converter.convert.bind(converter);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(converter, 'convert').mockImplementation(async (...args) => {
      await held;
      return convert(...args);
    });
    const draft = await postFile(
      client,
      `/manuscript/${id}/document`,
      'draft2.md',
      '# Two\n\nThe second draft, *longer*.',
    );
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().manuscript).toMatchObject({ id, inking: true, title: 'One' });
    // One conversion at a time per manuscript.
    const tooSoon = await postFile(client, `/manuscript/${id}/document`, 'draft3.md', '# Three');
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().error).toBe(STILL_INKING_MESSAGE);
    release();

    const state = await waitForState(client, draft.json().process_id);
    expect(state.status).toBe('SUCCESS');
    expect(state.manuscript).toMatchObject({ id, inking: false, title: 'One', words: 5 });
    const reader = (await client.get(`/manuscript/document/reader/${id}`)).json();
    expect(reader.html).toContain('<em>longer</em>');
    expect(reader.toc.map((entry: { text: string }) => entry.text)).toEqual(['Two']);

    const versions = await test.ctx.db
      .select()
      .from(schema.manuscriptVersions)
      .where(eq(schema.manuscriptVersions.manuscriptId, id))
      .orderBy(schema.manuscriptVersions.number);
    expect(versions.map((version) => [version.number, version.fileName])).toEqual([
      [1, 'draft1.md'],
      [2, 'draft2.md'],
    ]);
    expect(versions[0]!.html).toContain('First.');
    expect(versions[0]!.originalMediaId).not.toBeNull();
  });
});

describe('the reading policy', () => {
  type Viewer = 'anonymous' | 'stranger' | 'owner';
  const VIEWERS: Viewer[] = ['anonymous', 'stranger', 'owner'];
  /** JSON status per visibility × viewer. */
  const EXPECTED: Record<InviteType, Record<Viewer, number>> = {
    public: { anonymous: 200, stranger: 200, owner: 200 },
    logged_in: { anonymous: 401, stranger: 200, owner: 200 },
    restricted: { anonymous: 404, stranger: 404, owner: 200 },
    private: { anonymous: 404, stranger: 404, owner: 200 },
  };

  let owner: UserRow;
  const clients = {} as Record<Viewer, TestClient>;
  const manuscripts = {} as Record<InviteType, { id: number; imageId: string }>;

  beforeAll(async () => {
    const author = await loggedInClient(test);
    owner = author.user;
    clients.owner = author.client;
    clients.stranger = (await loggedInClient(test)).client;
    clients.anonymous = new TestClient(test.app);
    for (const visibility of INVITE_TYPES) {
      const row = await buildManuscript(test.ctx.db, owner, {
        visibility,
        title: `A ${visibility} one`,
      });
      manuscripts[visibility] = { id: row.id, imageId: await addImage(row.id, owner.id) };
    }
  });

  for (const visibility of INVITE_TYPES) {
    for (const viewer of VIEWERS) {
      const status = EXPECTED[visibility][viewer];
      it(`${visibility} × ${viewer}: JSON ${status}, HTML, summary and images agree`, async () => {
        const client = clients[viewer];
        const { id, imageId } = manuscripts[visibility];

        const json = await client.get(`/manuscript/document/reader/${id}`);
        expect(json.statusCode).toBe(status);
        if (status === 200) {
          expect(json.json()).toMatchObject({
            manuscript_id: id,
            manuscript_user_id: owner.id,
            visibility,
            words: 5,
            toc: [{ id: 'h-start', level: 1, text: 'Start' }],
          });
          expect(json.json().html).toContain('Once upon a time.');
        } else {
          expect(json.json()).toEqual({
            error: status === 401 ? MESSAGES.notLoggedIn : MESSAGES.notFound,
          });
        }

        const html = await client.get(`/manuscript/document/reader/${id}`, { headers: HTML });
        if (status === 200) {
          expect(html.statusCode).toBe(200);
          const config = pageConfigOf(html);
          expect(config.page).toBe('reader');
          expect(config.data).toMatchObject({ manuscript_id: id, visibility });
          // The text comes from the JSON answer (cached); the page shows its opening.
          expect(config.data).toMatchObject({ html: '', text_from_json: true });
          expect(html.body).toContain('Once upon a time.');
        } else if (status === 401) {
          expect(html.statusCode).toBe(302);
          expect(html.headers.location).toBe(
            `/auth/login?next=${encodeURIComponent(`/manuscript/document/reader/${id}`)}`,
          );
        } else {
          expect(html.statusCode).toBe(404);
          expect(pageConfigOf(html).page).toBe('not-found');
          expect(html.body).not.toContain(`A ${visibility} one`);
        }

        const summary = await client.get(`/manuscript/${id}/summary`);
        expect(summary.statusCode).toBe(status);
        if (status === 200) expect(summary.json().manuscript.title).toBe(`A ${visibility} one`);

        const image = await client.get(`/media/${imageId}`);
        expect(image.statusCode).toBe(status === 200 ? 200 : 404);
      });
    }
  }

  it('lets admins and moderators read a private manuscript only while a report is open; the uploaded original only to its author', async () => {
    const admin = (await loggedInClient(test, await buildUser(test.ctx.db, { role: 'admin' })))
      .client;
    const moderator = (
      await loggedInClient(test, await buildUser(test.ctx.db, { role: 'moderator' }))
    ).client;
    const { id } = manuscripts.private;
    expect((await admin.get(`/manuscript/document/reader/${id}`)).statusCode).toBe(404);
    expect((await moderator.get(`/manuscript/document/reader/${id}`)).statusCode).toBe(404);
    const { report } = await buildReport(test.ctx.db, { model: 'manuscript', elementId: id });
    expect((await admin.get(`/manuscript/document/reader/${id}`)).statusCode).toBe(200);
    expect((await moderator.get(`/manuscript/document/reader/${id}`)).statusCode).toBe(200);
    await test.ctx.db
      .update(schema.reports)
      .set({ status: 'dismissed' })
      .where(eq(schema.reports.id, report.id));
    expect((await moderator.get(`/manuscript/document/reader/${id}`)).statusCode).toBe(404);

    const upload = await postFile(clients.owner, '/manuscript/document', 'o.md', '# O\n\nText.', {
      visibility: 'public',
    });
    const { process_id: processId } = upload.json();
    await waitForState(clients.owner, processId);
    const [conversion] = await test.ctx.db
      .select()
      .from(schema.documentConversions)
      .where(eq(schema.documentConversions.id, processId));
    const original = `/media/${conversion!.originalMediaId}`;
    expect((await clients.owner.get(original)).statusCode).toBe(200);
    expect((await clients.stranger.get(original)).statusCode).toBe(404);
    expect((await clients.anonymous.get(original)).statusCode).toBe(404);
  });

  it('withholds mature text until the reader certifies 18+, and flags moderated ones', async () => {
    const row = await buildManuscript(test.ctx.db, owner, {
      visibility: 'public',
      nsfw: true,
      moderationFlag: true,
      moderationReason: 'Spam links',
    });
    const imageId = await addImage(row.id, owner.id);
    const stranger = await clients.stranger.get(`/manuscript/document/reader/${row.id}`);
    expect(stranger.json()).toMatchObject({
      restricted_mature: true,
      restricted_moderation: true,
      moderationReason: 'Spam links',
      html: '',
      toc: [],
    });
    expect((await clients.stranger.get(`/media/${imageId}`)).statusCode).toBe(404);

    const mine = (await clients.owner.get(`/manuscript/document/reader/${row.id}`)).json();
    expect(mine).toMatchObject({ restricted_mature: false, restricted_moderation: false });
    expect(mine.html).toContain('Once upon a time.');

    const certified = await buildUser(test.ctx.db, { certified18At: new Date() });
    const { client } = await loggedInClient(test, certified);
    const adult = (await client.get(`/manuscript/document/reader/${row.id}`)).json();
    expect(adult).toMatchObject({ restricted_mature: false, restricted_moderation: true });
    expect(adult.html).toContain('Once upon a time.');
    expect((await client.get(`/media/${imageId}`)).statusCode).toBe(200);
  });

  it('answers 404 for a manuscript that does not exist, and 400 for a bad id', async () => {
    expect((await clients.owner.get('/manuscript/document/reader/999999')).statusCode).toBe(404);
    expect((await clients.owner.get('/manuscript/document/reader/abc')).statusCode).toBe(400);
  });
});

describe('dashboard and upload pages', () => {
  it('lists my live manuscripts (inking ones too), newest first, never others’', async () => {
    const { client, user } = await loggedInClient(test);
    const older = await buildManuscript(test.ctx.db, user, { title: 'Older' });
    const inking = await buildManuscript(test.ctx.db, user, { title: 'Inking', inking: true });
    await buildManuscript(test.ctx.db, await buildUser(test.ctx.db), { title: 'Not mine' });

    const json = await client.get('/user/current/manuscripts');
    expect(json.statusCode).toBe(200);
    const list = json.json().manuscripts as Array<Record<string, unknown>>;
    expect(list.map((m) => m.id)).toEqual([inking.id, older.id]);
    expect(list[0]).toMatchObject({ inking: true, comment_count: 0, user_id: user.id });
    expect(list[0]!.author).toMatchObject({ id: user.id, handle: user.handle });
    expect(list[0]!.author).not.toHaveProperty('email');
    expect(JSON.stringify(list)).not.toContain(user.email);

    for (const url of ['/dashboard', '/user/current/manuscripts']) {
      const page = await client.get(url, { headers: HTML });
      expect(page.statusCode).toBe(200);
      const config = pageConfigOf(page);
      expect(config.page).toBe('dashboard');
      expect(config.data).toMatchObject({ bookmarks: [], invites: [] });
      expect((config.data.manuscripts as unknown[]).length).toBe(2);
      expect(Array.isArray(config.data.categories)).toBe(true);
    }
  });

  it('sends logged-out visitors to the login page (HTML) or 401 (JSON)', async () => {
    const anonymous = new TestClient(test.app);
    for (const url of ['/dashboard', '/user/current/manuscripts', '/manuscript/upload']) {
      const page = await anonymous.get(url, { headers: HTML });
      expect(page.statusCode).toBe(302);
      expect(page.headers.location).toBe(`/auth/login?next=${encodeURIComponent(url)}`);
    }
    expect((await anonymous.get('/user/current/manuscripts')).statusCode).toBe(401);
    const { client } = await loggedInClient(test);
    const upload = await client.get('/manuscript/upload', { headers: HTML });
    expect(upload.statusCode).toBe(200);
    expect(pageConfigOf(upload).page).toBe('upload');
  });

  it('describes every manuscript route in the OpenAPI document', async () => {
    const openapi = (await new TestClient(test.app).get('/api/openapi.json')).json();
    for (const path of [
      '/manuscript/document',
      '/manuscript/document/state/{result_id}',
      '/manuscript/{manuscript_id}/edit',
      '/manuscript/{manuscript_id}/document',
      '/manuscript/{manuscript_id}',
      '/manuscript/document/reader/{manuscript_id}',
      '/manuscript/{manuscript_id}/summary',
      '/user/current/manuscripts',
    ]) {
      expect(openapi.paths, path).toHaveProperty([path]);
    }
  });
});
