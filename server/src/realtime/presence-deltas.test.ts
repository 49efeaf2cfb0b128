import { Server } from 'socket.io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRESENCE_FLUSH_MAX_MS, PRESENCE_FLUSH_MS } from '@margins/common';
import type { RealtimeServer } from './index.ts';
import { PresenceDeltas, presenceWindowMs } from './presence-deltas.ts';

const reader = (id: number) => ({ id, display_name: `R${id}`, handle: `r${id}`, picture: null });

afterEach(() => {
  vi.useRealTimers();
});

/** A socket.io server (no HTTP: nothing to close) whose room holds `sockets` ids, and the rooms it broadcast to. */
function roomOf(sockets: number) {
  const io = new Server() as RealtimeServer;
  const adapter = io.of('/').adapter;
  for (let index = 0; index < sockets; index++) adapter.addAll(`socket-${index}`, new Set(['big']));
  const broadcasts: number[] = [];
  const broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet, options) => {
    broadcasts.push(Date.now());
    broadcast(packet, options);
  };
  return { io, broadcasts };
}

describe('presence windows', () => {
  it('grow with the room, from PRESENCE_FLUSH_MS up to PRESENCE_FLUSH_MAX_MS', () => {
    expect(presenceWindowMs(0)).toBe(PRESENCE_FLUSH_MS);
    expect(presenceWindowMs(100)).toBe(PRESENCE_FLUSH_MS);
    expect(presenceWindowMs(1000)).toBe(2000);
    expect(presenceWindowMs(1_000_000)).toBe(PRESENCE_FLUSH_MAX_MS);
    expect(presenceWindowMs(1000, 10)).toBe(2000);
  });

  it('a storm of arrivals in a room of 1,000 costs one broadcast per two seconds', async () => {
    vi.useFakeTimers();
    const { io, broadcasts } = roomOf(1000);
    const deltas = new PresenceDeltas(io);
    const started = Date.now();
    for (let id = 1; id <= 40; id++) {
      deltas.joined('big', reader(id));
      await vi.advanceTimersByTimeAsync(100); // one arrival every 100 ms, for 4 s
    }
    await vi.advanceTimersByTimeAsync(2000);
    // Every 250 ms this would be 16 broadcasts to the thousand sockets.
    expect(broadcasts.map((at) => at - started)).toEqual([2000, 4000]);
  });
});
