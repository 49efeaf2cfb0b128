import type { AddressInfo } from 'node:net';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  roomName,
  type ClientToServerEvents,
  type NewReplyEvent,
  type ServerToClientEvents,
} from '@margins/common';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { buildScene, postComment, type Person } from '../modules/comments/test-helpers.ts';

// Threads on the socket (issue 16): new_reply and the other thread events reach exactly those
// who may see them, with private comments on and off, for every role.

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
interface Peer {
  socket: Client;
  received: Array<{ event: string; payload: unknown }>;
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
afterAll(async () => test?.close());

const QUOTE = 'smelled of cedar and river damp';

async function connect(person: Person): Promise<Peer> {
  const cookie = [...person.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const socket: Client = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie },
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

function send(peer: Peer, event: string, payload: unknown) {
  return (
    peer.socket.timeout(5_000) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<Record<string, unknown>>;
    }
  ).emitWithAck(event, payload);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
const eventsOf = (peer: Peer, event: string) =>
  peer.received.filter((entry) => entry.event === event).map((entry) => entry.payload);

async function joinedScene(privateComments: boolean) {
  const scene = await buildScene(test, { privateComments });
  const peers = await Promise.all(
    [scene.owner, scene.writer, scene.reader].map((person) => connect(person)),
  );
  for (const peer of peers) {
    expect((await send(peer, 'join', { room: roomName(scene.manuscript.id) })).ok).toBe(true);
  }
  const [owner, writer, reader] = peers as [Peer, Peer, Peer];
  return { scene, owner, writer, reader };
}

describe('thread events over the socket', () => {
  it('without private comments: a reply reaches the whole room live, with votes, reactions and resolve', async () => {
    const { scene, owner, writer, reader } = await joinedScene(false);
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Hm');
    const ack = await send(reader, 'save_reply', {
      room,
      reply: { comment_id: comment.id, comment: 'Live reply' },
    });
    expect(ack).toMatchObject({ ok: true, comment: 'Live reply', comment_id: comment.id });
    await settle();
    for (const peer of [owner, writer]) {
      expect(eventsOf(peer, 'new_reply')).toEqual([
        { room, reply: expect.objectContaining({ id: ack.id, comment: 'Live reply' }) },
      ]);
    }
    // The writer's own socket has the ack, not the broadcast.
    expect(eventsOf(reader, 'new_reply')).toEqual([]);

    const reacted = await send(writer, 'react', {
      room,
      comment_id: ack.id,
      reaction: 'thumbs_up',
      on: true,
    });
    expect(reacted).toMatchObject({ ok: true, comment_id: ack.id });
    await scene.owner.client.post(`/comments/${ack.id as number}/rank/up`);
    await scene.owner.client.post(`/comments/${comment.id}/resolve`);
    await settle();
    expect(eventsOf(reader, 'reactions_changed')).toEqual([
      expect.objectContaining({
        comment_id: ack.id,
        reactions: [expect.objectContaining({ count: 1 })],
      }),
    ]);
    expect(eventsOf(reader, 'reply_ranked')).toEqual([
      { room, dir: 'up', reply_id: ack.id, comment_id: comment.id, rank: 1 },
    ]);
    expect(eventsOf(writer, 'comment_resolved')).toEqual([
      { room, comment_id: comment.id, resolved_at: expect.any(String) },
    ]);

    const deleted = await send(reader, 'delete_reply', { room, reply: { id: ack.id } });
    expect(deleted).toEqual({ ok: true, id: ack.id, comment_id: comment.id });
    await settle();
    expect(eventsOf(owner, 'delete_reply')).toHaveLength(1);
  });

  it('with private comments: replies, their votes and reactions reach only the comment writer, the replier and the owner', async () => {
    const { scene, owner, writer, reader } = await joinedScene(true);
    const room = roomName(scene.manuscript.id);
    const { comment } = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'Mine');
    // The other reader may not reply to what they cannot read, over the socket either.
    const refused = await send(reader, 'save_reply', {
      room,
      reply: { comment_id: comment.id, comment: 'let me in' },
    });
    expect(refused.ok).toBe(false);
    const ack = await send(owner, 'save_reply', {
      room,
      reply: { comment_id: comment.id, comment: 'Private answer' },
    });
    expect(ack.ok).toBe(true);
    await send(writer, 'react', { room, comment_id: ack.id, reaction: 'heart', on: true });
    await scene.writer.client.post(`/comments/${ack.id as number}/rank/up`);
    await settle();
    const got = eventsOf(writer, 'new_reply') as NewReplyEvent[];
    expect(got.map((event) => event.reply.comment)).toEqual(['Private answer']);
    expect(eventsOf(owner, 'reactions_changed')).toHaveLength(1);
    expect(eventsOf(owner, 'reply_ranked')).toHaveLength(1);
    for (const event of ['new_reply', 'reactions_changed', 'reply_ranked']) {
      expect(eventsOf(reader, event)).toEqual([]);
    }
    expect(JSON.stringify(reader.received)).not.toContain('Private answer');
  });
});
