import { SESSION_CACHE_MAX, SESSION_CACHE_MS } from '@margins/common';
import type { UserRow } from '../../context.ts';
import {
  CHANGE_CHANNELS,
  changeListenerOf,
  type ChangeListener,
} from '../../db/change-listener.ts';
import type { EventBus } from '../../events/bus.ts';

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
 * session made it, and every process LISTENs (db/change-listener.ts) and forgets that user's or
 * session's entries:
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
  private closed = false;
  /** Off: every lookup reads the database (see sessionCacheOf). */
  enabled = true;

  constructor(private readonly listener: Pick<ChangeListener, 'live' | 'on' | 'onDown'>) {
    listener.on(CHANGE_CHANNELS.auth, (payload) => this.announced(payload));
    listener.onDown(() => this.clear());
  }

  /** True while changes reach this process, i.e. while entries may be kept and used. */
  get active(): boolean {
    return this.enabled && this.listener.live && !this.closed;
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

  /** Forgets everything and keeps nothing more (the app closes). */
  close(): void {
    this.closed = true;
    this.clear();
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

type CacheContext = Parameters<typeof changeListenerOf>[0] & {
  config: { env: 'development' | 'production' | 'test' };
};

/**
 * The session cache of this app's database (made on first use; active while its listener is).
 * Off for the test suite on PostgreSQL: its tests write a user and at once ask as that user
 * through app.inject, with no network in between, so the notification can come a moment after
 * the next request; a browser's next request comes over the network, after it.
 */
export function sessionCacheOf(ctx: CacheContext): SessionCache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    cache = new SessionCache(changeListenerOf(ctx));
    cache.enabled = !(ctx.database.pool && ctx.config.env === 'test');
    caches.set(ctx.db, cache);
  }
  return cache;
}

/** Closes the cache of this app's database (the app closes); a later app makes a new one. */
export function closeSessionCache(ctx: CacheContext): void {
  caches.get(ctx.db)?.close();
  caches.delete(ctx.db);
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
