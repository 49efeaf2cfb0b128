import type { AddressInfo } from 'node:net';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { roomName, SOCKET_OPTIONS } from '@margins/common';
import { buildApp, type App } from '../app.ts';
import { buildScene, postComment } from '../modules/comments/test-helpers.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';

let test: TestApp | undefined;
let server: App | undefined;
let socket: ClientSocket | undefined;

afterAll(async () => {
  socket?.disconnect();
  await server?.close();
  await test?.database.close();
});

const cookieOf = (client: TestClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** Resolves on the next successful join of the room, as the reader page does on every connect. */
function nextJoin(client: ClientSocket, room: string): Promise<{ ok: boolean }> {
  return new Promise((resolve) => {
    client.once('connect', () => {
      void client
        .timeout(5_000)
        .emitWithAck('join', { room })
        .then((ack: { ok: boolean }) => resolve(ack));
    });
  });
}

it('a reader reconnects after the server restarts, rejoins, and receives new comments', async () => {
  test = await createTestApp();
  const scene = await buildScene(test);
  const room = roomName(scene.manuscript.id);
  // Only one server on the database at a time, as after a real restart.
  await test.app.close();

  server = await buildApp(test.ctx.config, test.database);
  await server.listen({ port: 0, host: '127.0.0.1' });
  const port = (server.server.address() as AddressInfo).port;

  socket = connectClient(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie: cookieOf(scene.owner.client) },
    ...SOCKET_OPTIONS,
    // The client's backoff, shortened so the test does not wait seconds.
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
  });
  expect((await nextJoin(socket, room)).ok).toBe(true);

  const rejoined = nextJoin(socket, room);
  await server.close();
  server = await buildApp(test.ctx.config, test.database);
  await server.listen({ port, host: '127.0.0.1' });
  expect((await rejoined).ok).toBe(true);

  const comments: Array<{ comment: { comment: string } }> = [];
  socket.on('new_comment', (event: { comment: { comment: string } }) => comments.push(event));
  const writer = new TestClient(server);
  for (const [name, value] of scene.writer.client.cookies) writer.cookies.set(name, value);
  await postComment(
    writer,
    scene.manuscript.id,
    'smelled of cedar and river damp',
    'After the restart',
  );

  await expect
    .poll(() => comments.map((event) => event.comment.comment), { timeout: 5_000 })
    .toEqual(['After the restart']);
});
