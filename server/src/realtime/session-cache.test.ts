import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  SESSION_COOKIE,
  roomName,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@margins/common';
import { schema } from '../db/index.ts';
import { hashToken } from '../lib/tokens.ts';
import { sessionCacheOf } from '../modules/auth/session-cache.ts';
import {
  buildScene,
  newSelectionId,
  selectionOf,
  type Person,
} from '../modules/comments/test-helpers.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

// The sockets' per-event session lookups go through the session cache (session-batch.ts): an
// event of a cached session is answered from it, and a change to the user or the session is
// still refused on the very next event.

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

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

async function connect(person: Person): Promise<Client> {
  const cookie = [...person.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const socket: Client = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie },
  });
  open.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

function send(socket: Client, event: string, payload: unknown) {
  return (
    socket.timeout(5_000) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<{ ok: boolean; error?: string }>;
    }
  ).emitWithAck(event, payload);
}

function sessionIdOf(person: Person): string {
  const cookie = decodeURIComponent(person.client.cookies.get(SESSION_COOKIE)!);
  return hashToken(test.app.unsignCookie(cookie).value!);
}

function highlight(manuscriptId: number) {
  return {
    room: roomName(manuscriptId),
    manuscript_id: manuscriptId,
    selection_id: newSelectionId(),
    highlight: selectionOf('smelled of cedar and river damp'),
  };
}

// On PostgreSQL the suite runs with the session cache off (sessionCacheOf says why) and a change
// reaches it a round trip after the commit; auth/session-cache.test.ts covers that path. Here:
// the socket's use of the cache, on the embedded database where invalidation is exact.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'socket events and the session cache',
  () => {
    it('answers a cached session, and refuses a user suspended since on the next event', async () => {
      const scene = await buildScene(test, { visibility: 'public' });
      const socket = await connect(scene.writer);
      expect((await send(socket, 'join', { room: roomName(scene.manuscript.id) })).ok).toBe(true);
      // The handshake's lookup kept the session: the events that follow are answered from it.
      expect(sessionCacheOf(test.ctx).get(sessionIdOf(scene.writer))?.id).toBe(
        scene.writer.user.id,
      );
      expect((await send(socket, 'highlight', highlight(scene.manuscript.id))).ok).toBe(true);

      // Suspended by a plain UPDATE (another process, or SQL by hand): the users trigger tells
      // the cache, and the next event reads the database and finds no live user.
      await test.ctx.db
        .update(schema.users)
        .set({ suspendedAt: new Date() })
        .where(eq(schema.users.id, scene.writer.user.id));
      expect(sessionCacheOf(test.ctx).get(sessionIdOf(scene.writer))).toBeUndefined();
      expect(await send(socket, 'highlight', highlight(scene.manuscript.id))).toEqual({
        ok: false,
        error: MESSAGES.notLoggedIn,
      });
    });

    it('refuses a socket whose session was ended in the database, though it was cached', async () => {
      const scene = await buildScene(test, { visibility: 'public' });
      const socket = await connect(scene.reader);
      expect((await send(socket, 'join', { room: roomName(scene.manuscript.id) })).ok).toBe(true);
      expect(sessionCacheOf(test.ctx).get(sessionIdOf(scene.reader))).toBeDefined();
      await test.ctx.db
        .delete(schema.sessions)
        .where(eq(schema.sessions.id, sessionIdOf(scene.reader)));
      expect(await send(socket, 'highlight', highlight(scene.manuscript.id))).toEqual({
        ok: false,
        error: MESSAGES.notLoggedIn,
      });
    });
  },
);
