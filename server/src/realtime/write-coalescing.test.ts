import { createServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSY_GAP_MS, coalesceWebSocketWrites, WriteCoalescer } from './write-coalescing.ts';

/** A real socket.io server with a real client over a WebSocket, and the server's TCP socket. */
async function connected(
  coalesce: boolean,
  transports: ('websocket' | 'polling')[] = ['websocket'],
) {
  const http = createServer();
  const io = new Server(http);
  const coalescer = coalesce ? coalesceWebSocketWrites(io, new WriteCoalescer(50)) : null;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const serverSide = new Promise<import('socket.io').Socket>((resolve) =>
    io.on('connection', resolve),
  );
  const client = connect(`http://127.0.0.1:${port}`, { transports, forceNew: true });
  const socket = await serverSide;
  if (transports.includes('polling')) {
    await new Promise<void>((resolve) => socket.conn.once('upgrade', () => resolve()));
  }
  const transport = socket.conn.transport as unknown as { socket: { _socket: NetSocket } };
  const tcp = transport.socket._socket;
  // Each call is one write to the kernel (a writev for several chunks at once).
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = tcp[method]!.bind(tcp) as (...args: unknown[]) => void;
    (tcp as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      writes++;
      original(...args);
    };
  }
  return { http, io, client, socket, coalescer, writes: () => writes };
}

function received(client: ClientSocket, count: number): Promise<number[]> {
  const values: number[] = [];
  return new Promise((resolve) =>
    client.on('tick', (value: number) => {
      values.push(value);
      if (values.length === count) resolve(values);
    }),
  );
}

describe('WebSocket writes held for a window go out together', () => {
  let close: () => Promise<void> = async () => {};
  beforeEach(() => {
    close = async () => {};
  });
  afterEach(async () => close());

  const setUp = async (coalesce: boolean, transports?: ('websocket' | 'polling')[]) => {
    const setup = await connected(coalesce, transports);
    close = async () => {
      setup.client.close();
      await setup.io.close();
      setup.http.close();
    };
    return setup;
  };

  const quiet = () => new Promise((resolve) => setTimeout(resolve, BUSY_GAP_MS + 20));

  it('a quiet socket is written at once; a busy one has the rest of its packets held together', async () => {
    const { client, socket, writes } = await setUp(true);
    await quiet();
    const arriving = received(client, 5);
    const before = writes();
    for (let value = 1; value <= 5; value++) socket.emit('tick', value);
    // The first went at once (nothing sent to it for a while); the four after it are held.
    expect(writes() - before).toBe(1);
    expect(await arriving).toEqual([1, 2, 3, 4, 5]);
    expect(writes() - before).toBe(2);
  });

  it('without it, one write a packet (what the window saves)', async () => {
    const { client, socket, writes } = await setUp(false);
    const arriving = received(client, 5);
    const before = writes();
    for (let value = 1; value <= 5; value++) socket.emit('tick', value);
    expect(await arriving).toEqual([1, 2, 3, 4, 5]);
    expect(writes() - before).toBe(5);
  });

  it('a held packet waits at most the window; release() sends at once', async () => {
    const { client, socket, coalescer, writes } = await setUp(true);
    await quiet();
    let arriving = received(client, 2);
    socket.emit('tick', 1);
    const started = performance.now();
    socket.emit('tick', 2);
    expect(await arriving).toEqual([1, 2]);
    expect(performance.now() - started).toBeLessThan(50 + 40);
    client.off('tick');
    await quiet();
    arriving = received(client, 2);
    socket.emit('tick', 3);
    socket.emit('tick', 4);
    // engine.io sends 4 once 3 is written (a tick later): busy by then, so held.
    await new Promise((resolve) => setImmediate(resolve));
    const before = writes();
    const released = performance.now();
    coalescer!.release();
    expect(writes() - before).toBe(1);
    expect(await arriving).toEqual([3, 4]);
    expect(performance.now() - released).toBeLessThan(40);
  });

  it('a connection that starts on long-polling is held once upgraded to a WebSocket', async () => {
    const { client, socket, writes } = await setUp(true, ['polling', 'websocket']);
    await quiet();
    const arriving = received(client, 3);
    const before = writes();
    for (let value = 1; value <= 3; value++) socket.emit('tick', value);
    expect(await arriving).toEqual([1, 2, 3]);
    expect(writes() - before).toBe(2);
  });
});
