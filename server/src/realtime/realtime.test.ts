import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  COMMENT_MESSAGES,
  MESSAGES,
  PRESENCE_FLUSH_MS,
  REALTIME_BUSY_RETRY_SECONDS,
  roomName,
  type ClientToServerEvents,
  type CommentListResponse,
  type ServerToClientEvents,
} from '@margins/common';
import { buildApp } from '../app.ts';
import { ADAPTER_GIVE_UP_MS, type Realtime, type RealtimeServer } from './index.ts';
import { RateLimiter } from '../lib/rate-limit.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import {
  buildScene,
  newSelectionId,
  postComment,
  revokeReader,
  selectionOf,
  sessionClient,
  WITHHELD_HIGHLIGHT,
  type Person,
  type Scene,
} from '../modules/comments/test-helpers.ts';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
interface Received {
  event: string;
  payload: unknown;
}
/** A connected socket and everything it has received. */
interface Peer {
  socket: Client;
  received: Received[];
}

let test: TestApp;
let baseUrl: string;
const open: Client[] = [];

beforeAll(async () => {
  test = await createTestApp();
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await test?.close();
});

const QUOTE = 'smelled of cedar and river damp';
const LATER_QUOTE = 'as quietly as furniture in a dream';
const SECRET = 'Only the author and I may read this';

const cookieOf = (client: TestClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** Opens a socket as a person (or anonymous), like the reader page does. */
async function connect(
  who: Person | TestClient | null,
  headers: Record<string, string> = {},
  url = baseUrl,
): Promise<Peer> {
  const client = who === null ? null : 'client' in who ? who.client : who;
  const cookie = client ? cookieOf(client) : '';
  const socket: Client = connectClient(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { ...(cookie ? { cookie } : {}), ...headers },
  });
  open.push(socket);
  const peer: Peer = { socket, received: [] };
  socket.onAny((event: string, payload: unknown) => peer.received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return peer;
}

/** emit with an ack, as the client does. */
function send<E extends keyof ClientToServerEvents>(
  peer: Peer,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
): Promise<Record<string, unknown> & { ok: boolean }> {
  return (
    peer.socket.timeout(5_000) as unknown as {
      emitWithAck(
        event: string,
        payload: unknown,
      ): Promise<Record<string, unknown> & { ok: boolean }>;
    }
  ).emitWithAck(event, payload);
}

async function join(peer: Peer, manuscriptId: number) {
  return send(peer, 'join', { room: roomName(manuscriptId) });
}

/** Waits until the peer has received `event` (matching), and returns its payload. */
async function received<T = Record<string, unknown>>(
  peer: Peer,
  event: string,
  matches: (payload: T) => boolean = () => true,
): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const hit = peer.received.find((entry) => entry.event === event && matches(entry.payload as T));
    if (hit) return hit.payload as T;
    if (Date.now() > deadline) {
      throw new Error(
        `no ${event}; got ${JSON.stringify(peer.received.map((entry) => entry.event))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Gives stray broadcasts time to arrive (for "and to no one else"). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
/** Past the presence window, so every pending delta has been sent. */
const settleDeltas = () => new Promise((resolve) => setTimeout(resolve, PRESENCE_FLUSH_MS + 150));
type PresenceDelta = { room: string; joined: Array<{ id: number }>; left: Array<{ id: number }> };
const leftOf = (userId: number) => (event: PresenceDelta) =>
  event.left.some((user) => user.id === userId);
function applyDelta(present: Set<number>, delta: PresenceDelta): void {
  for (const user of delta.joined) present.add(user.id);
  for (const user of delta.left) present.delete(user.id);
}
const eventsOf = (peer: Peer, event: string) =>
  peer.received.filter((entry) => entry.event === event);

/** The scene's people connected and joined to its room (the stranger connected, not joined). */
async function joinedScene(overrides: Parameters<typeof buildScene>[1] = {}) {
  const scene = await buildScene(test, overrides);
  const [owner, writer, reader, stranger] = await Promise.all(
    [scene.owner, scene.writer, scene.reader, scene.stranger].map((person) => connect(person)),
  );
  for (const peer of [owner!, writer!, reader!]) {
    expect((await join(peer, scene.manuscript.id)).ok).toBe(true);
  }
  await settle();
  for (const peer of [owner!, writer!, reader!, stranger!]) peer.received.length = 0;
  return { scene, owner: owner!, writer: writer!, reader: reader!, stranger: stranger! };
}

describe('joining a manuscript room', () => {
  it('lets readers in and refuses a stranger, and anonymous visitors of a non-public manuscript', async () => {
    const scene = await buildScene(test);
    const owner = await connect(scene.owner);
    const ownerJoin = await join(owner, scene.manuscript.id);
    expect(ownerJoin).toMatchObject({ ok: true, room: roomName(scene.manuscript.id) });

    const stranger = await connect(scene.stranger);
    const refused = await join(stranger, scene.manuscript.id);
    expect(refused).toEqual({ ok: false, error: MESSAGES.notFound });
    expect(await received(stranger, 'error')).toEqual({
      error: MESSAGES.notFound,
      event: 'join',
      room: roomName(scene.manuscript.id),
    });

    const anonymous = await connect(null);
    expect((await join(anonymous, scene.manuscript.id)).ok).toBe(false);
    expect((await send(anonymous, 'join', { room: 'lobby' })).ok).toBe(false);

    // Nothing said in the room reaches the refused.
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Hello room');
    await received(owner, 'new_comment');
    await settle();
    expect(eventsOf(stranger, 'new_comment')).toHaveLength(0);
    expect(eventsOf(anonymous, 'new_comment')).toHaveLength(0);
  });

  it('lets anonymous readers into a public manuscript, without a place in the strip', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const owner = await connect(scene.owner);
    await join(owner, scene.manuscript.id);
    const anonymous = await connect(null);
    const answer = await join(anonymous, scene.manuscript.id);
    expect(answer).toMatchObject({
      ok: true,
      users: [expect.objectContaining({ id: scene.owner.user.id })],
    });
    expect(await received(anonymous, 'join_room')).toMatchObject({ user: null });
    await settle();
    expect(eventsOf(owner, 'join_room')).toHaveLength(1); // only the owner's own snapshot
    // Anonymous may read the room but not write to it.
    const write = await send(anonymous, 'highlight', {
      room: roomName(scene.manuscript.id),
      manuscript_id: scene.manuscript.id,
      selection_id: newSelectionId(),
      highlight: selectionOf(QUOTE),
    });
    expect(write).toEqual({ ok: false, error: MESSAGES.notLoggedIn });
  });

  it('keeps the strip of connected users: the set on join, then deltas per user, not per tab', async () => {
    const scene = await buildScene(test);
    const owner = await connect(scene.owner);
    await join(owner, scene.manuscript.id);
    const reader = await connect(scene.reader);
    const answer = await join(reader, scene.manuscript.id);
    expect((answer.users as Array<{ id: number }>).map((user) => user.id).sort()).toEqual(
      [scene.owner.user.id, scene.reader.user.id].sort(),
    );
    const snapshot = await received<{ users: unknown[]; user: { id: number } }>(
      reader,
      'join_room',
    );
    expect(snapshot.users).toHaveLength(2);
    const delta = await received<PresenceDelta>(owner, 'presence', (event) =>
      event.joined.some((user) => user.id === scene.reader.user.id),
    );
    expect(delta).toMatchObject({ room: roomName(scene.manuscript.id), left: [] });
    expect(Object.keys(delta.joined[0]!).sort()).toEqual([
      'display_name',
      'handle',
      'id',
      'picture',
    ]);
    expect(eventsOf(owner, 'join_room')).toHaveLength(1); // only the owner's own snapshot

    // A second tab of the same reader is not a new person; its leaving is not the reader leaving.
    const secondTab = await connect(scene.reader);
    await join(secondTab, scene.manuscript.id);
    secondTab.socket.disconnect();
    await settleDeltas();
    expect(eventsOf(owner, 'presence')).toHaveLength(1);

    await send(reader, 'leave', { room: roomName(scene.manuscript.id) });
    expect(await received(owner, 'presence', leftOf(scene.reader.user.id))).toMatchObject({
      room: roomName(scene.manuscript.id),
      joined: [],
    });

    // Disconnecting is leaving too.
    const writer = await connect(scene.writer);
    await join(writer, scene.manuscript.id);
    writer.socket.disconnect();
    const last = await received(owner, 'presence', leftOf(scene.writer.user.id));
    // The join and the leave fell in one window: only the final state is sent.
    expect(last).toMatchObject({ joined: [] });
  });

  it('coalesces racing joins and leaves into one presence event per window, final state per user', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const owner = await connect(scene.owner);
    await join(owner, scene.manuscript.id);
    await settleDeltas();
    owner.received.length = 0;
    const people = await Promise.all(Array.from({ length: 12 }, () => sessionClient(test)));
    const peers = await Promise.all(people.map((person) => connect(person)));
    // Everyone joins at once; every third leaves again while the others are still joining.
    const answers = await Promise.all(
      peers.map(async (peer, index) => {
        const answer = await join(peer, scene.manuscript.id);
        if (index % 3 === 0) peer.socket.disconnect();
        return answer;
      }),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    await settleDeltas();
    const deltas = eventsOf(owner, 'presence').map((entry) => entry.payload as PresenceDelta);
    // One broadcast per window, not one per join (the window is 250 ms).
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.length).toBeLessThanOrEqual(3);
    expect(eventsOf(owner, 'join_room')).toHaveLength(0);
    // Applying the deltas in order gives exactly who is here now — for the owner, and for a
    // late joiner who starts from the snapshot.
    const stays = people.filter((_, index) => index % 3 !== 0).map((person) => person.user.id);
    const present = new Set<number>([scene.owner.user.id]);
    for (const delta of deltas) applyDelta(present, delta);
    expect([...present].sort()).toEqual([scene.owner.user.id, ...stays].sort());
    for (const delta of deltas) {
      const ids = [...delta.joined, ...delta.left].map((user) => user.id);
      expect(new Set(ids).size).toBe(ids.length); // each user once per event
    }
    const late = await connect(scene.writer);
    const lateAnswer = await join(late, scene.manuscript.id);
    const lateView = new Set((lateAnswer.users as Array<{ id: number }>).map((user) => user.id));
    expect([...lateView].sort()).toEqual(
      [scene.owner.user.id, scene.writer.user.id, ...stays].sort(),
    );
  });

  it('tells sockets arriving together apart: each is who its own session says, or nobody', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const people = await Promise.all(Array.from({ length: 8 }, () => sessionClient(test)));
    const ended = people.filter((_, index) => index % 3 === 1);
    for (const person of ended) {
      await test.ctx.db.delete(schema.sessions).where(eq(schema.sessions.userId, person.user.id));
    }
    // All at once: their session lookups go together.
    const peers = await Promise.all(people.map((person) => connect(person)));
    const answers = await Promise.all(peers.map((peer) => join(peer, scene.manuscript.id)));
    const own = await Promise.all(
      peers.map((peer) => received<{ user: { id: number } | null }>(peer, 'join_room')),
    );
    people.forEach((person, index) => {
      expect(answers[index]!.ok).toBe(true);
      expect(own[index]!.user?.id ?? null).toBe(ended.includes(person) ? null : person.user.id);
    });
    const present = (answers.at(-1)!.users as Array<{ id: number }>).map((user) => user.id);
    for (const person of ended) expect(present).not.toContain(person.user.id);
  });

  it('tells joins past the per-process limit to wait, and lets them in once there is room', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const capacity = (test.ctx.realtime as Realtime).capacity;
    const owner = await connect(scene.owner);
    await join(owner, scene.manuscript.id);
    const limit = capacity.limit;
    capacity.limit = capacity.joined.size + 1;
    try {
      const reader = await connect(scene.reader);
      expect((await join(reader, scene.manuscript.id)).ok).toBe(true);
      // Joining again from a socket already in is not a new socket.
      expect((await join(reader, scene.manuscript.id)).ok).toBe(true);
      const writer = await connect(scene.writer);
      const busy = await join(writer, scene.manuscript.id);
      expect(busy).toEqual({
        ok: false,
        error: MESSAGES.realtimeBusy(REALTIME_BUSY_RETRY_SECONDS),
        retry_after: REALTIME_BUSY_RETRY_SECONDS,
      });
      await settleDeltas();
      // Not in the room: nothing said there reaches it, and nobody saw it arrive.
      expect(eventsOf(writer, 'join_room')).toHaveLength(0);
      expect(
        eventsOf(owner, 'presence').some((entry) =>
          JSON.stringify(entry).includes(`"id":${scene.writer.user.id}`),
        ),
      ).toBe(false);
      reader.socket.disconnect();
      await received(owner, 'presence', leftOf(scene.reader.user.id));
      expect((await join(writer, scene.manuscript.id)).ok).toBe(true);
    } finally {
      capacity.limit = limit;
    }
  });
});

describe('writing over the socket', () => {
  it('highlight: acked with the anchored highlight, broadcast to the room only', async () => {
    const { scene, owner, writer, reader, stranger } = await joinedScene();
    const selectionId = newSelectionId();
    const ack = await send(writer, 'highlight', {
      room: roomName(scene.manuscript.id),
      manuscript_id: scene.manuscript.id,
      selection_id: selectionId,
      highlight: selectionOf(QUOTE),
    });
    expect(ack).toMatchObject({
      ok: true,
      selection_id: selectionId,
      block_id: 'b-p1-0',
      quote: { exact: QUOTE },
    });
    for (const peer of [owner, reader]) {
      expect(await received(peer, 'new_highlight')).toMatchObject({
        room: roomName(scene.manuscript.id),
        selection_id: selectionId,
        manuscript_id: scene.manuscript.id,
        highlight: { selection_id: selectionId, selectedText: QUOTE },
      });
    }
    await settle();
    expect(eventsOf(writer, 'new_highlight')).toHaveLength(0); // the sender has the ack
    expect(eventsOf(stranger, 'new_highlight')).toHaveLength(0);

    const bad = await send(writer, 'highlight', {
      room: roomName(scene.manuscript.id),
      manuscript_id: scene.manuscript.id,
      selection_id: newSelectionId(),
      highlight: {
        ...selectionOf(QUOTE),
        start: undefined,
        end: undefined,
        selectedText: 'Not in this book',
      },
    });
    expect(bad).toEqual({
      ok: false,
      error: MESSAGES.checkFormFields,
      errors: { highlight: [COMMENT_MESSAGES.selectionOutside] },
    });
    const invalid = await send(writer, 'highlight', {
      room: roomName(scene.manuscript.id),
    } as never);
    expect(invalid).toMatchObject({
      ok: false,
      error: MESSAGES.checkFormFields,
      errors: expect.any(Object),
    });
  });

  it('save_comment: creates, edits, and a blank save deletes; each acked and broadcast', async () => {
    const { scene, owner, writer, reader, stranger } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const selectionId = newSelectionId();
    await send(writer, 'highlight', {
      room,
      manuscript_id: scene.manuscript.id,
      selection_id: selectionId,
      highlight: selectionOf(QUOTE),
    });
    const created = await send(writer, 'save_comment', {
      room,
      comment: { selection_id: selectionId, comment: 'Beautiful line.' },
    });
    expect(created).toMatchObject({
      ok: true,
      deleted: false,
      comment: 'Beautiful line.',
      selection_id: selectionId,
      author_id: scene.writer.user.id,
      my_vote: 0,
    });
    const id = created.id as number;
    for (const peer of [owner, reader]) {
      const event = await received<{ comment: Record<string, unknown> }>(peer, 'new_comment');
      expect(event.comment).toMatchObject({ id, comment: 'Beautiful line.', private: false });
      expect(event.comment).not.toHaveProperty('my_vote');
    }

    const edited = await send(writer, 'save_comment', {
      room,
      comment: { id, comment: 'Beautiful!' },
    });
    expect(edited).toMatchObject({ ok: true, id, comment: 'Beautiful!' });
    await received(
      reader,
      'new_comment',
      (event: { comment: { comment: string } }) => event.comment.comment === 'Beautiful!',
    );

    // Someone else's comment cannot be edited, by anyone.
    const hijack = await send(reader, 'save_comment', {
      room,
      comment: { id, comment: 'Mine now' },
    });
    expect(hijack).toEqual({ ok: false, error: MESSAGES.forbidden });
    const ownerEdit = await send(owner, 'save_comment', {
      room,
      comment: { id, comment: 'Mine now' },
    });
    expect(ownerEdit.ok).toBe(false);
    // A room that is not the comment's manuscript: as if it did not exist.
    const elsewhere = await send(writer, 'save_comment', {
      room: roomName(scene.manuscript.id + 10_000),
      comment: { id, comment: 'x' },
    });
    expect(elsewhere).toEqual({ ok: false, error: MESSAGES.notFound });

    const blank = await send(writer, 'save_comment', { room, comment: { id, comment: '  ' } });
    expect(blank).toEqual({
      ok: true,
      deleted: true,
      id,
      selection_id: selectionId,
      highlight_removed: true,
    });
    expect(await received(owner, 'delete_comment')).toEqual({
      room,
      comment: { id, selection_id: selectionId, manuscript_id: scene.manuscript.id },
      highlight_removed: true,
    });
    await settle();
    expect(eventsOf(stranger, 'new_comment')).toHaveLength(0);
    expect(eventsOf(stranger, 'delete_comment')).toHaveLength(0);
  });

  it('save_comment without id and blank text cancels: the unused highlight goes', async () => {
    const { scene, owner, writer } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const selectionId = newSelectionId();
    await send(writer, 'highlight', {
      room,
      manuscript_id: scene.manuscript.id,
      selection_id: selectionId,
      highlight: selectionOf(QUOTE),
    });
    const cancelled = await send(writer, 'save_comment', {
      room,
      comment: { selection_id: selectionId, comment: '' },
    });
    expect(cancelled).toEqual({
      ok: true,
      deleted: true,
      id: null,
      selection_id: selectionId,
      highlight_removed: true,
    });
    expect(await received(owner, 'delete_comment')).toMatchObject({
      comment: { id: null, selection_id: selectionId },
      highlight_removed: true,
    });
  });

  it('delete_comment: the writer or the owner; acked and broadcast', async () => {
    const { scene, owner, writer, reader } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const first = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'One');
    const second = await postComment(scene.writer.client, scene.manuscript.id, LATER_QUOTE, 'Two');

    const refused = await send(reader, 'delete_comment', {
      room,
      comment: { id: first.comment.id },
    });
    expect(refused).toEqual({ ok: false, error: MESSAGES.forbidden });

    const own = await send(writer, 'delete_comment', { room, comment: { id: first.comment.id } });
    expect(own).toEqual({
      ok: true,
      id: first.comment.id,
      selection_id: first.comment.selection_id,
      highlight_removed: true,
    });
    await received(
      reader,
      'delete_comment',
      (event: { comment: { id: number } }) => event.comment.id === first.comment.id,
    );

    const byOwner = await send(owner, 'delete_comment', {
      room,
      comment: { id: second.comment.id },
    });
    expect(byOwner).toMatchObject({ ok: true, id: second.comment.id });
    await received(
      writer,
      'delete_comment',
      (event: { comment: { id: number } }) => event.comment.id === second.comment.id,
    );

    const again = await send(owner, 'delete_comment', { room, comment: { id: second.comment.id } });
    expect(again).toEqual({ ok: false, error: MESSAGES.notFound });
  });

  it('rank_comment: one vote per user, acked with my_vote, broadcast as comment_ranked', async () => {
    const { scene, owner, writer, reader } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Rank me',
    );

    const up = await send(reader, 'rank_comment', { room, dir: 'up', comment_id: comment.id });
    expect(up).toMatchObject({ ok: true, id: comment.id, rank: 1, my_vote: 1 });
    expect(await received(owner, 'comment_ranked')).toEqual({
      room,
      dir: 'up',
      comment_id: comment.id,
      rank: 1,
    });
    const again = await send(reader, 'rank_comment', { room, dir: 'up', comment_id: comment.id });
    expect(again).toMatchObject({ ok: true, rank: 1 });
    const down = await send(owner, 'rank_comment', { room, dir: 'down', comment_id: comment.id });
    expect(down).toMatchObject({ ok: true, rank: 0, my_vote: -1 });
    await received(writer, 'comment_ranked', (event: { rank: number }) => event.rank === 0);
    // The unchanged vote broadcast nothing: the writer saw exactly two changes.
    await settle();
    expect(eventsOf(writer, 'comment_ranked')).toHaveLength(2);

    const own = await send(writer, 'rank_comment', { room, dir: 'up', comment_id: comment.id });
    expect(own).toEqual({ ok: false, error: COMMENT_MESSAGES.ownVote });
  });

  it('counts writes per user over the socket and HTTP alike, and refuses them past the limit', async () => {
    const { scene, owner, reader } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Hi');
    const limits = test.ctx.limits;
    const saved = limits.commentWritesPerUser;
    limits.commentWritesPerUser = new RateLimiter(test.ctx.db, 'comment-writes-test', 3, 60_000);
    try {
      const vote = (dir: 'up' | 'down') =>
        send(reader, 'rank_comment', { room, dir, comment_id: comment.id });
      expect((await vote('up')).ok).toBe(true);
      expect((await vote('down')).ok).toBe(true);
      const http = await scene.reader.client.post(`/comments/${comment.id}/rank/up`);
      expect(http.statusCode).toBe(200);
      expect(await vote('up')).toEqual({ ok: false, error: MESSAGES.tooManyWrites });
      const refused = await scene.reader.client.post(`/comments/${comment.id}/rank/down`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: MESSAGES.tooManyWrites });
      // Reading goes on; another person's writes are not counted with these.
      expect(
        (await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)).statusCode,
      ).toBe(200);
      const byOwner = await send(owner, 'rank_comment', {
        room,
        dir: 'up',
        comment_id: comment.id,
      });
      expect(byOwner.ok).toBe(true);
    } finally {
      limits.commentWritesPerUser = saved;
    }
  });
});

describe('refusals', () => {
  it('refuses every write from a stranger and from a logged-out socket', async () => {
    const { scene, stranger } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Hi');
    const anonymous = await connect(null);
    for (const peer of [stranger, anonymous]) {
      // Neither may know a restricted manuscript exists.
      const expected = MESSAGES.notFound;
      const answers = await Promise.all([
        send(peer, 'highlight', {
          room,
          manuscript_id: scene.manuscript.id,
          selection_id: newSelectionId(),
          highlight: selectionOf(QUOTE),
        }),
        send(peer, 'save_comment', {
          room,
          comment: { selection_id: comment.selection_id, comment: 'Sneaky' },
        }),
        send(peer, 'save_comment', { room, comment: { id: comment.id, comment: 'Sneaky' } }),
        send(peer, 'delete_comment', { room, comment: { id: comment.id } }),
        send(peer, 'rank_comment', { room, dir: 'up', comment_id: comment.id }),
      ]);
      for (const answer of answers) expect(answer).toEqual({ ok: false, error: expected });
    }
    const [row] = await test.ctx.db
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.id, comment.id));
    expect(row).toMatchObject({ body: 'Hi', rank: 0, deletedAt: null });
  });

  it('refuses a reader whose access was revoked on the next write, and evicts them from the room', async () => {
    const { scene, owner, reader } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    await revokeReader(test.ctx.db, scene.manuscript.id, scene.reader.user.id);
    const write = await send(reader, 'highlight', {
      room,
      manuscript_id: scene.manuscript.id,
      selection_id: newSelectionId(),
      highlight: selectionOf(QUOTE),
    });
    expect(write).toEqual({ ok: false, error: MESSAGES.notFound });

    await test.ctx.realtime.evictFromRoom(scene.manuscript.id, scene.reader.user.id);
    expect(await received(reader, 'error')).toEqual({
      error: COMMENT_MESSAGES.accessRevoked,
      room,
      event: 'evicted',
    });
    await received(owner, 'presence', leftOf(scene.reader.user.id));
    await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'After the eviction');
    await received(owner, 'new_comment');
    await settle();
    expect(eventsOf(reader, 'new_comment')).toHaveLength(0);
    expect((await join(reader, scene.manuscript.id)).ok).toBe(false);
  });

  it('recheckRoom removes everyone who may no longer read after a visibility change', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const anonymous = await connect(null);
    const owner = await connect(scene.owner);
    const reader = await connect(scene.reader);
    const stranger = await connect(scene.stranger);
    for (const peer of [anonymous, owner, reader, stranger]) {
      expect((await join(peer, scene.manuscript.id)).ok).toBe(true);
    }
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ visibility: 'private' })
      .where(eq(schema.manuscripts.id, scene.manuscript.id));
    expect(await test.ctx.realtime.recheckRoom(scene.manuscript.id)).toEqual({
      users: [scene.stranger.user.id],
      anonymous: true,
    });
    expect(await received(anonymous, 'error')).toMatchObject({ event: 'evicted' });
    expect(await received(stranger, 'error')).toMatchObject({ event: 'evicted' });
    await postComment(scene.owner.client, scene.manuscript.id, QUOTE, 'Private now');
    await received(owner, 'new_comment'); // an HTTP write reaches the writer's own tabs too
    await received(reader, 'new_comment'); // an invited reader stays
    await settle();
    expect(eventsOf(anonymous, 'new_comment')).toHaveLength(0);
    expect(eventsOf(stranger, 'new_comment')).toHaveLength(0);
  });

  it('refuses a socket opened from another site', async () => {
    const scene = await buildScene(test);
    await expect(connect(scene.reader, { origin: 'https://evil.example' })).rejects.toThrow();
  });
});

describe('HTTP writes', () => {
  it('broadcast the same events as the socket', async () => {
    const { scene, owner, reader } = await joinedScene();
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      QUOTE,
      'Over HTTP',
    );
    expect(await received(owner, 'new_highlight')).toMatchObject({
      selection_id: comment.selection_id,
    });
    expect(await received(reader, 'new_comment')).toMatchObject({
      room,
      comment: { id: comment.id, comment: 'Over HTTP' },
    });
    await scene.writer.client.put(`/comments/${comment.id}`, { comment: 'Edited over HTTP' });
    await received(
      reader,
      'new_comment',
      (event: { comment: { comment: string } }) => event.comment.comment === 'Edited over HTTP',
    );
    await scene.reader.client.post(`/comments/${comment.id}/rank/down`);
    expect(await received(owner, 'comment_ranked')).toEqual({
      room,
      dir: 'down',
      comment_id: comment.id,
      rank: -1,
    });
    await scene.owner.client.delete(`/comments/${comment.id}`);
    expect(await received(reader, 'delete_comment')).toMatchObject({ comment: { id: comment.id } });
  });
});

describe('private comments over the socket', () => {
  it('never give a third reader the text or the quote, by broadcast, ack or catch-up', async () => {
    const { scene, owner, writer, reader } = await joinedScene({ privateComments: true });
    const room = roomName(scene.manuscript.id);
    const writerTab = await connect(scene.writer);
    await join(writerTab, scene.manuscript.id);
    const before = (
      await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)
    ).json() as CommentListResponse;

    const selectionId = newSelectionId();
    const highlightAck = await send(writer, 'highlight', {
      room,
      manuscript_id: scene.manuscript.id,
      selection_id: selectionId,
      highlight: selectionOf(QUOTE),
    });
    expect(highlightAck).toMatchObject({ ok: true, selectedText: QUOTE, private: false });
    const saved = await send(writer, 'save_comment', {
      room,
      comment: { selection_id: selectionId, comment: SECRET },
    });
    expect(saved).toMatchObject({ ok: true, comment: SECRET });
    await send(writer, 'save_comment', {
      room,
      comment: { id: saved.id as number, comment: `${SECRET} (edited)` },
    });

    // The owner and the writer's other tab get the text…
    for (const insider of [owner, writerTab]) {
      expect(await received(insider, 'new_comment')).toMatchObject({
        comment: { comment: SECRET, private: false },
      });
      expect(await received(insider, 'new_highlight')).toMatchObject({
        highlight: { selectedText: QUOTE, private: false },
      });
    }
    // …the third reader gets that a comment exists, never what it says or quotes.
    expect(await received(reader, 'new_comment')).toMatchObject({
      comment: { id: saved.id, comment: MESSAGES.privateComments, private: true },
    });
    // Nor where (its offsets would give the quote back from the text).
    expect(await received(reader, 'new_highlight')).toMatchObject({
      highlight: WITHHELD_HIGHLIGHT,
    });
    const catchUp = await scene.reader.client.get(
      `/comments/manuscript/${scene.manuscript.id}?since=${encodeURIComponent(before.cursor)}`,
    );
    // A vote or a report on a text they cannot see is refused.
    const vote = await send(reader, 'rank_comment', {
      room,
      dir: 'up',
      comment_id: saved.id as number,
    });
    expect(vote.ok).toBe(false);
    await settle();
    const everything = JSON.stringify(reader.received) + catchUp.body + JSON.stringify(vote);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(QUOTE);
    expect(catchUp.json().comments).toHaveLength(1);

    // The reader's own private comment reaches the owner but not the first writer.
    const mine = await postComment(
      scene.reader.client,
      scene.manuscript.id,
      LATER_QUOTE,
      'Reader secret',
    );
    expect(
      await received(
        owner,
        'new_comment',
        (event: { comment: { id: number } }) => event.comment.id === mine.comment.id,
      ),
    ).toMatchObject({ comment: { comment: 'Reader secret' } });
    const atWriter = await received<{ comment: { id: number; comment: string } }>(
      writer,
      'new_comment',
      (event) => event.comment.id === mine.comment.id,
    );
    expect(atWriter.comment.comment).toBe(MESSAGES.privateComments);
  });
});

describe('catching up after a reconnect', () => {
  it('gives a reconnected reader what they missed, to merge by id without duplicates', async () => {
    const { scene, reader } = await joinedScene();
    const before = (
      await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)
    ).json() as CommentListResponse;
    const kept = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Seen live');
    await received(reader, 'new_comment');
    reader.socket.disconnect();

    const missed = await postComment(
      scene.writer.client,
      scene.manuscript.id,
      LATER_QUOTE,
      'Missed',
    );
    await scene.writer.client.delete(`/comments/${kept.comment.id}`);

    const again = await connect(scene.reader);
    await join(again, scene.manuscript.id);
    const since = (
      await scene.reader.client.get(
        `/comments/manuscript/${scene.manuscript.id}?since=${encodeURIComponent(before.cursor)}`,
      )
    ).json() as CommentListResponse;
    const merged = new Map<number, string>([[kept.comment.id, 'Seen live']]);
    for (const comment of since.comments) merged.set(comment.id, comment.comment);
    for (const id of since.deleted.comments) merged.delete(id);
    expect([...merged.values()]).toEqual(['Missed']);
    expect(since.deleted.highlights).toEqual([kept.comment.selection_id]);
    expect(missed.comment.id).toBeGreaterThan(kept.comment.id);
  });
});

describe('sessions', () => {
  it('treat a socket whose session ended as logged out', async () => {
    const person = await sessionClient(test);
    const scene: Scene = await buildScene(test, { visibility: 'public' });
    const peer = await connect(person);
    expect((await join(peer, scene.manuscript.id)).ok).toBe(true);
    await test.ctx.db.delete(schema.sessions).where(eq(schema.sessions.userId, person.user.id));
    const write = await send(peer, 'highlight', {
      room: roomName(scene.manuscript.id),
      manuscript_id: scene.manuscript.id,
      selection_id: newSelectionId(),
      highlight: selectionOf(QUOTE),
    });
    expect(write).toEqual({ ok: false, error: MESSAGES.notLoggedIn });
  });

  it('disconnect on logout every socket opened with that session, and no other', async () => {
    const person = await sessionClient(test);
    const other = await sessionClient(test);
    const scene: Scene = await buildScene(test, { visibility: 'public' });
    const tabs = [await connect(person), await connect(person)];
    const bystander = await connect(other);
    for (const peer of [...tabs, bystander]) {
      expect((await join(peer, scene.manuscript.id)).ok).toBe(true);
    }
    const closed = tabs.map(
      (peer) => new Promise<string>((resolve) => peer.socket.once('disconnect', resolve)),
    );
    expect((await person.client.post('/auth/logout')).statusCode).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(bystander.socket.connected).toBe(true);
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('two server processes (PostgreSQL adapter)', () => {
  it('carry broadcasts, private views, presence and evictions between the servers', async () => {
    const second = await buildApp(test.ctx.config, test.database);
    await second.listen({ port: 0, host: '127.0.0.1' });
    const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
    try {
      // The adapters find each other by heartbeat.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const scene = await buildScene(test, { privateComments: true });
      const room = roomName(scene.manuscript.id);
      const owner = await connect(scene.owner); // first server
      await join(owner, scene.manuscript.id);
      const writer = await connect(scene.writer, {}, secondUrl);
      const reader = await connect(scene.reader, {}, secondUrl);
      await join(writer, scene.manuscript.id);
      const joined = await join(reader, scene.manuscript.id);
      const present = (joined.users as Array<{ id: number }>).map((user) => user.id).sort();
      expect(present).toEqual(
        [scene.owner.user.id, scene.writer.user.id, scene.reader.user.id].sort(),
      );
      await received<PresenceDelta>(owner, 'presence', (event) =>
        event.joined.some((user) => user.id === scene.reader.user.id),
      );

      const selectionId = newSelectionId();
      await send(writer, 'highlight', {
        room,
        manuscript_id: scene.manuscript.id,
        selection_id: selectionId,
        highlight: selectionOf(QUOTE),
      });
      const saved = await send(writer, 'save_comment', {
        room,
        comment: { selection_id: selectionId, comment: SECRET },
      });
      expect(saved.ok).toBe(true);
      expect(await received(owner, 'new_comment')).toMatchObject({ comment: { comment: SECRET } });
      expect(await received(reader, 'new_comment')).toMatchObject({
        comment: { comment: MESSAGES.privateComments },
      });
      await settle();
      expect(JSON.stringify(reader.received)).not.toContain(SECRET);

      // The first server evicts a reader connected to the second.
      await test.ctx.realtime.evictFromRoom(scene.manuscript.id, scene.reader.user.id);
      expect(await received(reader, 'error')).toMatchObject({ event: 'evicted', room });
      await postComment(scene.owner.client, scene.manuscript.id, LATER_QUOTE, 'After');
      await received(
        writer,
        'new_comment',
        (event: { comment: { comment: string } }) =>
          event.comment.comment === MESSAGES.privateComments,
      );
      await settle();
      expect(eventsOf(reader, 'new_comment')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('give up a process that went silent (kill -9) within 2 s: a join then waits no longer', async () => {
    const second = await buildApp(test.ctx.config, test.database);
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const scene = await buildScene(test);
      const owner = await connect(scene.owner);
      await join(owner, scene.manuscript.id);
      // The second server dies without a goodbye: nothing more from it, no answers.
      const silent = (second.ctx.realtime as unknown as Realtime & { io: RealtimeServer }).io.of(
        '/',
      ).adapter as unknown as { publish(): void; onMessage(): void };
      silent.publish = () => undefined;
      silent.onMessage = () => undefined;
      const died = Date.now();
      const reader = await connect(scene.reader);
      await join(reader, scene.manuscript.id);
      const strips = () =>
        eventsOf(reader, 'join_room').map((event) => (event as { users?: unknown[] }).users);
      // Joined without waiting for the dead server's answer: this process's people at once…
      expect(Date.now() - died).toBeLessThan(1_000);
      expect(strips()).toHaveLength(1);
      // …and the whole strip once the dead server was given up (ADAPTER_GIVE_UP_MS, checked
      // every second), well before the adapter's 5 s time-out for an answer.
      await vi.waitUntil(() => strips().length === 2, { timeout: ADAPTER_GIVE_UP_MS + 2_000 });
      expect(Date.now() - died).toBeLessThan(ADAPTER_GIVE_UP_MS + 1_500);
      expect(strips()[1]).toEqual(strips()[0]);
    } finally {
      await second.close();
    }
  });
});
