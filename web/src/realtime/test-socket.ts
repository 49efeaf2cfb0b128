import type { MarginsSocket } from './socket.ts';

type Listener = (...args: never[]) => void;
type ServerHandler = (payload: never) => unknown;

/**
 * A stand-in for socket.io-client's socket in tests: records what the page emits, answers
 * acks with the handlers a test gives (the "server"), and lets the test connect, drop the
 * connection and push server events.
 */
export class TestSocket {
  connected = false;
  readonly id = 'test-socket';
  readonly emitted: Array<{ event: string; payload: unknown }> = [];
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(readonly server: Record<string, ServerHandler> = {}) {}

  /** This object typed as the app's socket. */
  get socket(): MarginsSocket {
    return this as unknown as MarginsSocket;
  }

  on(event: string, listener: Listener): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, payload?: unknown, ack?: (answer: unknown) => void): this {
    this.emitted.push({ event, payload });
    const handler = this.server[event];
    if (ack && handler) {
      const answer = handler(payload as never);
      queueMicrotask(() => ack(answer));
    }
    return this;
  }

  /** A handler's answer for "the connection dropped before the ack" (socket.io rejects). */
  static readonly dropBeforeAck = Symbol('drop before the ack');

  timeout(_ms: number) {
    return {
      emitWithAck: (event: string, payload: unknown) =>
        new Promise((resolve, reject) =>
          this.emit(event, payload, (answer) => {
            if (answer !== TestSocket.dropBeforeAck) return resolve(answer);
            this.drop();
            reject(new Error('socket has been disconnected'));
          }),
        ),
    };
  }

  connect(): this {
    this.connected = true;
    this.fire('connect');
    return this;
  }

  disconnect(): this {
    this.connected = false;
    this.fire('disconnect', 'io client disconnect');
    return this;
  }

  /** The connection drops (the server restarts, the network goes). */
  drop(): void {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }

  /** A server event (or one of the socket's own, like connect_error). */
  fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }

  /** What was emitted for one event, in order. */
  sent(event: string): unknown[] {
    return this.emitted.filter((entry) => entry.event === event).map((entry) => entry.payload);
  }
}
