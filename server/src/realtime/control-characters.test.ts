import type { AddressInfo } from 'node:net';
import { count } from 'drizzle-orm';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, MESSAGES, roomName } from '@margins/common';
import { schema } from '../db/index.ts';
import {
  buildScene,
  newSelectionId,
  selectionOf,
  type Scene,
} from '../modules/comments/test-helpers.ts';
import { createTestApp, type TestApp, type TestClient } from '../test/harness.ts';

let test: TestApp;
let baseUrl: string;
let scene: Scene;
let socket: Socket;

const QUOTE = 'smelled of cedar and river damp';

beforeAll(async () => {
  test = await createTestApp();
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  scene = await buildScene(test);
  socket = await connect(scene.writer.client);
});
afterAll(async () => {
  socket?.disconnect();
  await test?.close();
});

async function connect(client: TestClient): Promise<Socket> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const connected = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie },
  });
  await new Promise<void>((resolve, reject) => {
    connected.once('connect', () => resolve());
    connected.once('connect_error', reject);
  });
  return connected;
}

const send = (event: string, payload: unknown) =>
  socket.timeout(5_000).emitWithAck(event, payload) as Promise<{
    ok: boolean;
    error?: string;
    errors?: Record<string, string[]>;
  }>;

describe('control characters in socket events', () => {
  it('a comment with NUL (or a lone surrogate) is a field error, not a server error', async () => {
    const room = roomName(scene.manuscript.id);
    expect((await send('join', { room })).ok).toBe(true);
    const selectionId = newSelectionId();
    const highlighted = await send('highlight', {
      room,
      manuscript_id: scene.manuscript.id,
      selection_id: selectionId,
      highlight: selectionOf(QUOTE),
    });
    expect(highlighted.ok).toBe(true);
    const [before] = await test.ctx.db.select({ n: count() }).from(schema.comments);

    for (const text of ['Nice\u0000line', 'Half \ud800 a pair', 'Bell\u0007']) {
      const answer = await send('save_comment', {
        room,
        comment: { selection_id: selectionId, comment: text },
      });
      expect(answer.ok).toBe(false);
      expect(answer.error).not.toBe(MESSAGES.serverError);
      expect(answer.errors).toEqual({ comment: [INPUT_MESSAGES.controlCharacters] });
    }
    const [after] = await test.ctx.db.select({ n: count() }).from(schema.comments);
    expect(after!.n).toBe(before!.n);

    // Line breaks and tabs stay allowed in a comment.
    const saved = await send('save_comment', {
      room,
      comment: { selection_id: selectionId, comment: 'Two\nlines\tand a tab' },
    });
    expect(saved.ok).toBe(true);
  });
});
