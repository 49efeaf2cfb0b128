import type { Socket as NetSocket } from 'node:net';
import type { Server } from 'socket.io';

/**
 * How long a busy WebSocket's writes are held to go out together. A busy room sends every socket
 * in it one frame per comment, and each frame was a system call of its own: a quarter of the
 * server's time with 350 sockets and 50 comments a second (bench/realtime-headroom.bench.ts,
 * issue 17). Held for 16 ms (a frame of the screen), the frames that come meanwhile leave in one
 * call.
 */
const WRITE_WINDOW_MS = 16;

/**
 * A socket is busy when it is sent to again within this long of its last packet: only then are
 * its writes held. A quiet room's frame (a comment now and then, a presence change) goes at once,
 * with no added wait.
 */
export const BUSY_GAP_MS = 50;

/** Corks TCP sockets as they are written to and uncorks them all together, once a window. */
export class WriteCoalescer {
  private readonly held = new Set<NetSocket>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly windowMs = WRITE_WINDOW_MS) {}

  /** Holds the socket's writes until the current window ends (one opens if none is open). */
  hold(socket: NetSocket): void {
    if (this.held.has(socket) || socket.destroyed) return;
    socket.cork();
    this.held.add(socket);
    if (!this.timer) {
      this.timer = setTimeout(() => this.release(), this.windowMs);
      this.timer.unref();
    }
  }

  /** Sends everything held (each socket's frames in the order they were written). */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = [...this.held];
    this.held.clear();
    for (const socket of held) socket.uncork();
  }
}

/** What of engine.io's WebSocket transport this reaches into (engine.io/build/transports/websocket.js). */
interface EngineTransport {
  name: string;
  /** False from a send until `ws` reports it written; engine.io buffers packets meanwhile. */
  writable: boolean;
  send(packets: unknown[]): void;
  /** The `ws` WebSocket, and its TCP socket. */
  socket?: { _socket?: NetSocket };
}

interface EngineSocket {
  transport: EngineTransport;
  on(event: 'upgrade', listener: (transport: EngineTransport) => void): void;
}

const coalesced = new WeakSet<EngineTransport>();

/**
 * Every WebSocket connection of `io` writes through the coalescer: a packet engine.io sends to a
 * busy socket holds its TCP socket for the window. (Long-polling answers are whole HTTP
 * responses already.)
 */
export function coalesceWebSocketWrites(
  io: Server,
  coalescer = new WriteCoalescer(),
): WriteCoalescer {
  const wrap = (transport: EngineTransport) => {
    const socket = transport.socket?._socket;
    if (transport.name !== 'websocket' || !socket || coalesced.has(transport)) return;
    coalesced.add(transport);
    const send = transport.send.bind(transport);
    let lastSend = -Infinity;
    transport.send = (packets) => {
      const now = performance.now();
      const busy = now - lastSend < BUSY_GAP_MS;
      lastSend = now;
      if (!busy) return send(packets);
      coalescer.hold(socket);
      send(packets);
      // The socket is corked: the frame is in its buffer, not written. Left not writable,
      // engine.io would hold the next packets until the window ends and then open another window
      // for them; writable, they join this window's write.
      transport.writable = true;
    };
  };
  io.engine.on('connection', (engineSocket: EngineSocket) => {
    wrap(engineSocket.transport);
    engineSocket.on('upgrade', wrap);
  });
  return coalescer;
}
