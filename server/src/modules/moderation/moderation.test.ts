import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MODERATION_MESSAGES,
  roomName,
  type ClientToServerEvents,
  type CommentListResponse,
  type ServerToClientEvents,
} from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser, TEST_PASSWORD } from '../../test/factories.ts';
import { buildScene, postComment, sessionClient, type Person } from '../comments/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import {
  clearCommentFlag,
  clearManuscriptFlag,
  dismissReports,
  flagComment,
  flagManuscript,
  liftSuspension,
  reportQueue,
  suspendUser,
} from './index.ts';
import { buildReport } from './test-helpers.ts';
import { reportQueueQuery } from '@margins/common';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

let test: TestApp;
let baseUrl: string;
let moderator: UserRow;
const sockets: Client[] = [];

beforeAll(async () => {
  test = await createTestApp();
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  moderator = await buildUser(test.ctx.db, { role: 'moderator' });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => test?.close());

const cookieOf = (client: TestClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** A socket as the reader page opens it, recording what it receives. */
async function connect(person: Person) {
  const socket: Client = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: cookieOf(person.client) },
  });
  sockets.push(socket);
  const received: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

async function joinRoom(socket: Client, manuscriptId: number) {
  const answer = await (
    socket.timeout(5_000) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<{ ok: boolean }>;
    }
  ).emitWithAck('join', { room: roomName(manuscriptId) });
  expect(answer.ok).toBe(true);
}

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const readerJson = async (client: TestClient, id: number) =>
  (await client.get(`/manuscript/document/reader/${id}`)).json() as {
    restricted_moderation: boolean;
    moderationReason: string | null;
    staff_openings?: Array<{ opened: string }>;
  };

describe('flagging a manuscript', () => {
  it('shows the notice over HTTP and live in the room, and clearing lifts it', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const id = scene.manuscript.id;
    const live = await connect(scene.reader);
    await joinRoom(live.socket, id);
    const { report } = await buildReport(test.ctx.db, { model: 'manuscript', elementId: id });

    await flagManuscript(test.ctx, moderator, id, '  Spam links  ');

    expect(await readerJson(scene.reader.client, id)).toMatchObject({
      restricted_moderation: true,
      moderationReason: 'Spam links',
    });
    // The author is not held up by the notice (SPEC: non-owners see it).
    expect((await readerJson(scene.owner.client, id)).restricted_moderation).toBe(false);
    const flagged = await waitFor(
      () => live.received.find((entry) => entry.event === 'manuscript_flagged'),
      'manuscript_flagged',
    );
    expect(flagged.payload).toEqual({
      room: roomName(id),
      manuscript_id: id,
      moderation_flag: true,
      moderation_reason: 'Spam links',
    });
    // The decision closes the report.
    const [closed] = await test.ctx.db
      .select()
      .from(schema.reports)
      .where(eq(schema.reports.id, report.id));
    expect(closed).toMatchObject({ status: 'resolved', resolvedById: moderator.id });

    live.received.length = 0;
    await clearManuscriptFlag(test.ctx, moderator, id);
    expect((await readerJson(scene.reader.client, id)).restricted_moderation).toBe(false);
    const cleared = await waitFor(
      () => live.received.find((entry) => entry.event === 'manuscript_flagged'),
      'manuscript_flagged (cleared)',
    );
    expect(cleared.payload).toMatchObject({ moderation_flag: false, moderation_reason: null });
  });

  it('refuses a missing reason, an unknown manuscript and a non-moderator', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const attempt = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) =>
          error instanceof HttpError ? { status: error.status, errors: error.errors } : error,
      );
    expect(await attempt(flagManuscript(test.ctx, moderator, scene.manuscript.id, '  '))).toEqual({
      status: 400,
      errors: { reason: [MODERATION_MESSAGES.reasonRequired] },
    });
    expect(await attempt(flagManuscript(test.ctx, moderator, 2_000_000, 'x'))).toMatchObject({
      status: 404,
    });
    expect(
      await attempt(flagManuscript(test.ctx, scene.reader.user, scene.manuscript.id, 'x')),
    ).toMatchObject({ status: 403 });
    const [row] = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, scene.manuscript.id));
    expect(row!.moderationFlag).toBe(false);
  });
});

describe('flagging a comment', () => {
  it('hides its text behind the reason over HTTP and live; clearing restores it', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const id = scene.manuscript.id;
    const posted = await postComment(scene.writer.client, id, 'cedar', 'Rude words here');
    const live = await connect(scene.reader);
    await joinRoom(live.socket, id);

    await flagComment(test.ctx, moderator, posted.comment.id, 'Insults');

    const list = (
      await scene.reader.client.get(`/comments/manuscript/${id}`)
    ).json() as CommentListResponse;
    const shown = list.comments.find((comment) => comment.id === posted.comment.id)!;
    expect(shown).toMatchObject({ moderation_flag: true, moderation_reason: 'Insults' });
    const pushed = await waitFor(
      () =>
        live.received.find(
          (entry) =>
            entry.event === 'new_comment' &&
            (entry.payload as { comment: { moderation_flag: boolean } }).comment.moderation_flag,
        ),
      'new_comment with the flag',
    );
    expect(pushed.payload).toMatchObject({
      comment: { id: posted.comment.id, moderation_flag: true, moderation_reason: 'Insults' },
    });

    await clearCommentFlag(test.ctx, moderator, posted.comment.id);
    const after = (
      await scene.reader.client.get(`/comments/manuscript/${id}`)
    ).json() as CommentListResponse;
    expect(after.comments.find((comment) => comment.id === posted.comment.id)).toMatchObject({
      moderation_flag: false,
      moderation_reason: null,
    });
  });
});

describe('suspending a user', () => {
  it('logs them out everywhere, closes their sockets, refuses log-in, hides their work; lifting restores it', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db, { displayName: 'Suspended Author' });
    const title = 'Lighthouse Keeper Chronicles';
    const work = await buildManuscript(db, author, { visibility: 'public', title });
    const [first, second] = [await sessionClient(test, author), await sessionClient(test, author)];
    const live = await connect(first!);
    await joinRoom(live.socket, work.id);
    const disconnected = new Promise<string>((resolve) =>
      live.socket.once('disconnect', (reason) => resolve(reason)),
    );
    const visitor = new TestClient(test.app);
    const discoverTitles = async () =>
      (
        (await visitor.post('/discover/', { q: 'lighthouse keeper' })).json() as {
          page: { items: Array<{ title: string }> };
        }
      ).page.items.map((item) => item.title);
    const profileTitles = async () =>
      (
        (await visitor.get(`/profile/get/${author.id}/manuscripts`)).json() as {
          manuscripts: Array<{ title: string }>;
        }
      ).manuscripts.map((item) => item.title);
    expect(await discoverTitles()).toContain(title);
    expect(await profileTitles()).toEqual([title]);

    await suspendUser(test.ctx, moderator, author.id, 'Spam accounts');

    expect(await disconnected).toBe('io server disconnect');
    for (const person of [first!, second!]) {
      expect((await person.client.get('/user/current/manuscripts')).statusCode).toBe(401);
    }
    const sessions = await db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, author.id));
    expect(sessions).toEqual([]);
    const login = await new TestClient(test.app).post('/auth/login', {
      email: author.email,
      password: TEST_PASSWORD,
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe(MODERATION_MESSAGES.accountSuspended('Spam accounts'));
    // A wrong password still says only that: the suspension is told to the owner alone.
    const wrong = await new TestClient(test.app).post('/auth/login', {
      email: author.email,
      password: 'not the password at all',
    });
    expect(wrong.statusCode).toBe(401);
    expect(await discoverTitles()).not.toContain(title);
    expect(await profileTitles()).toEqual([]);

    await liftSuspension(test.ctx, moderator, author.id);
    const again = await new TestClient(test.app).post('/auth/login', {
      email: author.email,
      password: TEST_PASSWORD,
    });
    expect(again.statusCode).toBe(200);
    expect(await discoverTitles()).toContain(title);
    expect(await profileTitles()).toEqual([title]);
  });

  it('does not suspend staff', async () => {
    const admin = await buildUser(test.ctx.db, { role: 'admin' });
    await expect(suspendUser(test.ctx, moderator, admin.id, 'x')).rejects.toMatchObject({
      status: 409,
    });
  });
});

describe('the report queue', () => {
  it('groups reports by element, newest first, with text, context and reasons', async () => {
    const { db } = test.ctx;
    const scene = await buildScene(test, { visibility: 'public', title: 'Queue Book' });
    const posted = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      'cedar',
      'Buy pills',
    );
    const onComment = await buildReport(db, {
      model: 'comment',
      elementId: posted.comment.id,
      description: 'spam',
    });
    const second = await buildReport(db, { model: 'comment', elementId: posted.comment.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const onManuscript = await buildReport(db, {
      model: 'manuscript',
      elementId: scene.manuscript.id,
    });
    const queue = await reportQueue(test.ctx, reportQueueQuery.parse({}));
    const mine = queue.items.filter(
      (group) =>
        (group.model_name === 'comment' && group.element_id === posted.comment.id) ||
        (group.model_name === 'manuscript' && group.element_id === scene.manuscript.id),
    );
    expect(mine.map((group) => group.model_name)).toEqual(['manuscript', 'comment']);
    expect(mine[1]).toMatchObject({
      text: 'Buy pills',
      context: 'On “cedar” in Queue Book',
      manuscript_id: scene.manuscript.id,
      open_count: 2,
      missing: false,
    });
    expect(mine[1]!.reports.map((report) => report.reason).sort()).toEqual(
      [onComment.reason.reason, second.reason.reason].sort(),
    );
    expect(mine[0]!.text).toBe('Queue Book');

    // Dismissed reports leave the open queue.
    expect(await dismissReports(test.ctx, moderator, [onComment.report.id, second.report.id])).toBe(
      2,
    );
    const open = await reportQueue(test.ctx, reportQueueQuery.parse({}));
    expect(
      open.items.some(
        (group) => group.model_name === 'comment' && group.element_id === posted.comment.id,
      ),
    ).toBe(false);
    const all = await reportQueue(test.ctx, reportQueueQuery.parse({ status: 'all' }));
    expect(
      all.items.find(
        (group) => group.model_name === 'comment' && group.element_id === posted.comment.id,
      )?.open_count,
    ).toBe(0);
    expect(onManuscript.report.status).toBe('open');
    await expect(dismissReports(test.ctx, moderator, [2_000_000])).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('the staff reading rule', () => {
  it('opens a private manuscript to staff only while a report is open, and tells the author', async () => {
    const scene = await buildScene(test, { visibility: 'private' });
    const id = scene.manuscript.id;
    const staff = await sessionClient(test, await buildUser(test.ctx.db, { role: 'moderator' }));
    const status = async () =>
      (await staff.client.get(`/manuscript/document/reader/${id}`)).statusCode;

    expect(await status()).toBe(404);
    expect((await readerJson(scene.owner.client, id)).staff_openings).toEqual([]);

    const { report } = await buildReport(test.ctx.db, { model: 'manuscript', elementId: id });
    expect(await status()).toBe(200);
    // A reload within minutes is the same opening.
    expect(await status()).toBe(200);
    const openings = (await readerJson(scene.owner.client, id)).staff_openings!;
    expect(openings).toHaveLength(1);
    expect(Date.now() - Date.parse(openings[0]!.opened)).toBeLessThan(60_000);
    const [row] = await test.ctx.db
      .select()
      .from(schema.staffOpenings)
      .where(eq(schema.staffOpenings.manuscriptId, id));
    expect(row).toMatchObject({ staffId: staff.user.id, reportId: report.id });
    const audited = await test.ctx.db
      .select()
      .from(schema.auditLog)
      .where(eq(schema.auditLog.section, 'manuscript-opening'));
    expect(audited.filter((entry) => entry.entityIds.includes(id))).toMatchObject([
      { actorId: staff.user.id, actorRole: 'moderator', action: 'open' },
    ]);
    // Readers never see the list.
    expect((await readerJson(scene.reader.client, id)).staff_openings).toEqual([]);

    await dismissReports(test.ctx, moderator, [report.id]);
    expect(await status()).toBe(404);
  });
});
