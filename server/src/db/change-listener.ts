import pg from 'pg';
import { SESSION_CACHE_RECONNECT_MS } from '@margins/common';
import type { Database } from './index.ts';

type Handler = (payload: string) => void;

/** The channels of migration 0009's triggers. */
export const CHANGE_CHANNELS = {
  /** 'u:<user id>' (a user changed or was deleted), 's:<session id>' (a session ended). */
  auth: 'margins_auth',
  /** An access event as stored (events table): {"name": ..., "payload": ...}. */
  access: 'margins_access',
  /** The name of a table a statement wrote (migration 0012's change triggers; lib/cache). */
  tables: 'margins_changes',
} as const;
const CHANNELS = Object.values(CHANGE_CHANNELS);
/** A channel the change listener listens on. */
export type ChangeChannel = (typeof CHANNELS)[number];

/**
 * One LISTEN connection per process for the channels that triggers announce changes on
 * (migration 0009: margins_auth, margins_access; 0012: margins_changes), so that every
 * process's in-memory caches
 * learn of a change at its commit, whoever made it. On PGlite a notification is delivered before
 * the writing statement returns; on PostgreSQL within a round trip of the commit. While it is
 * not listening (starting, lost, reconnecting) `live` is false and the caches must not rely on
 * it; `onDown` handlers run when it stops, so that they can drop what they kept.
 */
export class ChangeListener {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly downHandlers: Array<() => void> = [];
  private listening = false;
  private closed = false;
  private stopListening: (() => Promise<void>) | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private starting: Promise<void> | null = null;
  /** The PostgreSQL connection that listens (null when embedded or not connected). */
  private client: pg.Client | null = null;
  /** The round trip on it under way (caughtUp), and the callers waiting for the next one. */
  private roundTrip: Promise<void> | null = null;
  private nextRoundTrip: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(
    private readonly database: Pick<Database, 'pglite' | 'pool'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** True while changes reach this process. */
  get live(): boolean {
    return this.listening && !this.closed;
  }

  /**
   * Resolves once every notification committed before the call has reached the handlers. On
   * the embedded database at once: PGlite hands a statement's notifications to the handlers
   * before the statement returns. On PostgreSQL, after a round trip on the listening
   * connection: a backend sends the notifications committed so far before it answers its next
   * query (a committing transaction signals the listeners before its own client learns of the
   * commit), so they are handled before that answer arrives. Callers waiting together share one
   * round trip; one is under way at a time. Not listening: at once (callers check `live`).
   */
  caughtUp(): Promise<void> {
    if (!this.client) return Promise.resolve();
    if (!this.nextRoundTrip) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.nextRoundTrip = { promise, resolve };
    }
    const waiting = this.nextRoundTrip.promise;
    if (!this.roundTrip) this.startRoundTrip();
    return waiting;
  }

  private startRoundTrip(): void {
    const batch = this.nextRoundTrip;
    const client = this.client;
    this.nextRoundTrip = null;
    if (!batch) return;
    if (!client) {
      batch.resolve();
      return;
    }
    // A failed round trip means a lost connection: `live` is false by then.
    this.roundTrip = client
      .query('select 1')
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.roundTrip = null;
        batch.resolve();
        this.startRoundTrip();
      });
  }

  /** Runs `handler` with each payload announced on `channel`. */
  on(channel: ChangeChannel, handler: Handler): void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
  }

  /** Runs `handler` whenever the listener stops (lost or closed). */
  onDown(handler: () => void): void {
    this.downHandlers.push(handler);
  }

  /** Starts listening on every channel (once: a second call waits for the first). */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => (this.starting = null));
    return this.starting;
  }

  private async connect(): Promise<void> {
    if (this.closed || this.listening) return;
    try {
      if (this.database.pglite)
        this.stopListening = await this.listenEmbedded(this.database.pglite);
      else if (this.database.pool)
        this.stopListening = await this.listenOnServer(this.database.pool);
      else return;
      if (this.closed) {
        await this.stopListening();
        return;
      }
      this.listening = true;
    } catch (error) {
      this.lost(error);
    }
  }

  /** Stops listening (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    for (const handler of this.downHandlers) handler();
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.().catch(() => undefined);
  }

  private async listenEmbedded(
    pglite: NonNullable<Database['pglite']>,
  ): Promise<() => Promise<void>> {
    const stops = await Promise.all(
      CHANNELS.map((channel) =>
        pglite.listen(channel, (payload) => this.announced(channel, payload)),
      ),
    );
    return async () => {
      await Promise.all(stops.map((stop) => stop()));
    };
  }

  /** A dedicated connection (LISTEN holds it for good: it must not be one of the app's pool). */
  private async listenOnServer(pool: pg.Pool): Promise<() => Promise<void>> {
    const client = new pg.Client(pool.options);
    client.on('notification', (message) => this.announced(message.channel, message.payload ?? ''));
    client.on('error', (error) => this.lost(error));
    client.on('end', () => this.lost(null));
    await client.connect();
    for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
    this.client = client;
    return async () => {
      if (this.client === client) this.client = null;
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      await client.end();
    };
  }

  /** The listener is gone (or never came): tell the caches, try again in a moment. */
  private lost(error: unknown): void {
    const wasUp = this.listening || this.stopListening !== null;
    this.listening = false;
    this.client = null;
    for (const handler of this.downHandlers) handler();
    if (this.closed) return;
    if (error && wasUp) this.onError(error);
    const stop = this.stopListening;
    this.stopListening = null;
    void stop?.().catch(() => undefined);
    this.retry ??= setTimeout(() => {
      this.retry = null;
      void this.start();
    }, SESSION_CACHE_RECONNECT_MS);
    this.retry.unref();
  }

  private announced(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) handler(payload);
  }
}

/** One listener per database (tests run many apps in one process). */
const listeners = new WeakMap<object, ChangeListener>();

type ListenerContext = {
  db: object;
  database: Pick<Database, 'pglite' | 'pool'>;
  log: { warn(object: object, message: string): void };
};

/** The change listener of this app's database (made on first use, not live until started). */
export function changeListenerOf(ctx: ListenerContext): ChangeListener {
  let listener = listeners.get(ctx.db);
  if (!listener) {
    listener = new ChangeListener(ctx.database, (error) =>
      ctx.log.warn({ err: error }, 'change listener lost: caches are bypassed until it is back'),
    );
    listeners.set(ctx.db, listener);
  }
  return listener;
}

/** Closes the listener of this app's database (the app closes); a later app makes a new one. */
export async function closeChangeListener(ctx: ListenerContext): Promise<void> {
  const listener = listeners.get(ctx.db);
  listeners.delete(ctx.db);
  await listener?.close();
}
