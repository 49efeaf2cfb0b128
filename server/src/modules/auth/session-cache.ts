import pg from 'pg';
import { SESSION_CACHE_MAX, SESSION_CACHE_MS, SESSION_CACHE_RECONNECT_MS } from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { EventBus } from '../../events/bus.ts';

/** The channel of migration 0009's triggers: 'u:<user id>' or 's:<session id>'. */
const CHANNEL = 'margins_auth';

interface Entry {
  user: UserRow;
  /** Date.now() past which the entry is not used (the TTL, or the session's own end). */
  expiresAt: number;
}

/**
 * Every request of a logged-in client starts by finding the user of its session; that lookup
 * (a join of sessions and users) was half the cost of the cheapest request. This keeps its
 * answer per process, for SESSION_CACHE_MS at most, and never longer than the session lives.
 *
 * Invalidation, and the bound on a stale answer: triggers on users (update, delete) and sessions
 * (update, delete) announce the change on a channel at its commit, whichever process or SQL
 * session made it, and every process LISTENs and forgets that user's or session's entries:
 * - embedded (PGlite): the notification is delivered before the writing statement (or
 *   transaction) returns, so the next request of this process sees the change: exact;
 * - PostgreSQL: the notification reaches each process's listener connection within the time of
 *   a round trip after the commit; the writing process itself also forgets at once where it
 *   ends a session (logout) or suspends (user.suspended). While the listener is not connected
 *   (starting, lost, reconnecting) nothing is cached, so a missed notification cannot keep a
 *   logged-out or suspended user in; a connection that stalls without an error is bounded by
 *   SESSION_CACHE_MS.
 * A read that was under way when a change was announced is not kept (the epoch), so an answer
 * read before the change cannot be stored after the change was forgotten.
 */
export class SessionCache {
  private readonly bySession = new Map<string, Entry>();
  private readonly sessionsOfUser = new Map<number, Set<string>>();
  /** Bumped by every forget: a read that began at an older epoch is not kept. */
  private epoch = 0;
  private listening = false;
  private closed = false;
  private stopListening: (() => Promise<void>) | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly database: Pick<Database, 'pglite' | 'pool'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** True while changes reach this process, i.e. while entries may be kept and used. */
  get active(): boolean {
    return this.listening && !this.closed;
  }

  /** The cached user of a session, or undefined (not kept, expired, or the cache is off). */
  get(sessionId: string): UserRow | undefined {
    const entry = this.bySession.get(sessionId);
    if (!entry) return undefined;
    if (this.active && entry.expiresAt > Date.now()) return entry.user;
    this.forgetEntry(sessionId);
    return undefined;
  }

  /** The epoch to hand back to keep(): taken before the read it guards. */
  mark(): number {
    return this.epoch;
  }

  /** Keeps a session's user, read since `epoch` (nothing was forgotten meanwhile). */
  keep(epoch: number, sessionId: string, user: UserRow, sessionExpiresAt: Date): void {
    if (!this.active || epoch !== this.epoch) return;
    const expiresAt = Math.min(Date.now() + SESSION_CACHE_MS, sessionExpiresAt.getTime());
    this.forgetEntry(sessionId);
    this.bySession.set(sessionId, { user, expiresAt });
    let sessions = this.sessionsOfUser.get(user.id);
    if (!sessions) this.sessionsOfUser.set(user.id, (sessions = new Set()));
    sessions.add(sessionId);
    // Oldest first (insertion order): a full cache forgets the longest-held session.
    if (this.bySession.size > SESSION_CACHE_MAX)
      this.forgetEntry(this.bySession.keys().next().value!);
  }

  /** Forgets one session (ended). */
  forgetSession(sessionId: string): void {
    this.epoch++;
    this.forgetEntry(sessionId);
  }

  /** Forgets every session of a user (changed, suspended, deleted). */
  forgetUser(userId: number): void {
    this.epoch++;
    for (const sessionId of [...(this.sessionsOfUser.get(userId) ?? [])]) {
      this.forgetEntry(sessionId);
    }
  }

  /** Starts listening for changes; entries are kept only once it listens. */
  async start(): Promise<void> {
    if (this.closed || this.listening) return;
    try {
      if (this.database.pglite) {
        this.stopListening = await this.database.pglite.listen(CHANNEL, (payload) =>
          this.announced(payload),
        );
      } else if (this.database.pool) {
        this.stopListening = await this.listenOnServer(this.database.pool);
      } else return;
      if (this.closed) {
        await this.stopListening();
        return;
      }
      this.listening = true;
    } catch (error) {
      this.lost(error);
    }
  }

  /** Stops listening and forgets everything (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    this.clear();
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.().catch(() => undefined);
  }

  /** A dedicated connection (LISTEN holds it for good: it must not be one of the app's pool). */
  private async listenOnServer(pool: pg.Pool): Promise<() => Promise<void>> {
    const client = new pg.Client(pool.options);
    client.on('notification', (message) => this.announced(message.payload ?? ''));
    client.on('error', (error) => this.lost(error));
    client.on('end', () => this.lost(null));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return async () => {
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      await client.end();
    };
  }

  /** The listener is gone (or never came): nothing is kept until it is back. */
  private lost(error: unknown): void {
    const wasUp = this.listening || this.stopListening !== null;
    this.listening = false;
    this.clear();
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

  private announced(payload: string): void {
    if (payload.startsWith('u:')) this.forgetUser(Number(payload.slice(2)));
    else if (payload.startsWith('s:')) this.forgetSession(payload.slice(2));
    else this.clear();
  }

  private clear(): void {
    this.epoch++;
    this.bySession.clear();
    this.sessionsOfUser.clear();
  }

  private forgetEntry(sessionId: string): void {
    const entry = this.bySession.get(sessionId);
    if (!entry) return;
    this.bySession.delete(sessionId);
    const sessions = this.sessionsOfUser.get(entry.user.id);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.sessionsOfUser.delete(entry.user.id);
  }
}

/** One cache per database (tests run many apps in one process; the app's processes share none). */
const caches = new WeakMap<object, SessionCache>();

type CacheContext = {
  db: object;
  database: Pick<Database, 'pglite' | 'pool'>;
  log: { warn(object: object, message: string): void };
};

/** The session cache of this app's database (made on first use, inactive until started). */
export function sessionCacheOf(ctx: CacheContext): SessionCache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    cache = new SessionCache(ctx.database, (error) =>
      ctx.log.warn({ err: error }, 'session cache: listener lost, not caching until it is back'),
    );
    caches.set(ctx.db, cache);
  }
  return cache;
}

/** Closes the cache of this app's database (the app closes); a later app makes a new one. */
export async function closeSessionCache(ctx: CacheContext): Promise<void> {
  const cache = caches.get(ctx.db);
  caches.delete(ctx.db);
  await cache?.close();
}

/**
 * The suspending process refuses the user at once, whatever the database (on PostgreSQL the
 * users trigger's notification may come a moment after the commit).
 */
export function subscribeSessionCache(bus: EventBus): void {
  bus.subscribe('user.suspended', {
    name: 'session cache',
    afterCommit: (ctx, { payload }) => sessionCacheOf(ctx).forgetUser(payload.userId),
  });
}
