import { SESSION_CACHE_MAX, SESSION_CACHE_MS } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { CHANGE_CHANNELS, changeListenerOf } from '../../db/change-listener.ts';
import { defineCache, type Cache } from '../../lib/cache/cache.ts';
import type { EventBus } from '../../events/bus.ts';

/**
 * Every request of a logged-in client starts by finding the user of its session; that lookup
 * (a join of sessions and users) was half the cost of the cheapest request. This keeps its
 * answer per process, for SESSION_CACHE_MS at most, and never longer than the session lives.
 *
 * Invalidation, and the bound on a stale answer: triggers on users (update, delete) and sessions
 * (update, delete) announce the row that changed on margins_auth at its commit (migration
 * 0009), whichever process or SQL session made it, and every process forgets that user's or
 * session's entries (a notice, lib/cache):
 * - embedded (PGlite): the notification is delivered before the writing statement (or
 *   transaction) returns, so the next request of this process sees the change: exact;
 * - PostgreSQL: the notification reaches each process's listener connection within the time of
 *   a round trip after the commit; the writing process itself also forgets at once where it
 *   ends a session (logout) or suspends (user.suspended). While the listener is not connected
 *   (starting, lost, reconnecting) nothing is kept, so a missed notification cannot keep a
 *   logged-out or suspended user in; a connection that stalls without an error is bounded by
 *   SESSION_CACHE_MS.
 * A read that was under way when a change was announced is not kept (the epoch: mark, keep),
 * so an answer read before the change cannot be stored after the change was forgotten.
 */
const sessionUsers = defineCache<UserRow>({
  name: 'session_users',
  dependsOn: {
    notices: {
      channel: CHANGE_CHANNELS.auth,
      forget(payload, cache) {
        if (payload.startsWith('u:')) cache.forgetTagged(payload);
        else if (payload.startsWith('s:')) cache.forget(payload.slice(2));
        else cache.clear();
      },
    },
    ttlMs: SESSION_CACHE_MS,
  },
  limit: { entries: SESSION_CACHE_MAX },
  tagsOf: (_sessionId, user) => [`u:${user.id}`],
});

/** The session cache of one database, as the session lookups use it. */
export class SessionCache {
  constructor(private readonly cache: Cache<UserRow>) {}

  /** True while changes reach this process, i.e. while entries may be kept and used. */
  get active(): boolean {
    return this.cache.active;
  }

  /** Off: every lookup reads the database (see sessionCacheOf). */
  get enabled(): boolean {
    return this.cache.enabled;
  }

  set enabled(on: boolean) {
    this.cache.enabled = on;
  }

  /** The cached user of a session, or undefined (not kept, expired, or the cache is off). */
  get(sessionId: string): UserRow | undefined {
    return this.cache.peek(sessionId);
  }

  /** The epoch to hand back to keep(): taken before the read it guards. */
  mark(): number {
    return this.cache.mark();
  }

  /** Keeps a session's user, read since `epoch` (nothing was forgotten meanwhile). */
  keep(epoch: number, sessionId: string, user: UserRow, sessionExpiresAt: Date): void {
    this.cache.set(epoch, sessionId, user, sessionExpiresAt.getTime() - Date.now());
  }

  /** Forgets one session (ended). */
  forgetSession(sessionId: string): void {
    this.cache.forget(sessionId);
  }

  /** Forgets every session of a user (changed, suspended, deleted). */
  forgetUser(userId: number): void {
    this.cache.forgetTagged(`u:${userId}`);
  }

  /** Forgets everything and keeps nothing more (the app closes). */
  close(): void {
    this.cache.enabled = false;
    this.cache.clear();
  }
}

type SessionCacheContext = Parameters<typeof changeListenerOf>[0] & {
  config: { env: 'development' | 'production' | 'test' };
};

/** One facade per database. */
const facades = new WeakMap<object, SessionCache>();

/**
 * The session cache of this app's database (made on first use; active while its listener is).
 * Off for the test suite on PostgreSQL: its tests write a user and at once ask as that user
 * through app.inject, with no network in between, so the notification can come a moment after
 * the next request; a browser's next request comes over the network, after it.
 */
export function sessionCacheOf(ctx: SessionCacheContext): SessionCache {
  let facade = facades.get(ctx.db);
  if (!facade) {
    const cache = sessionUsers.of(ctx);
    cache.enabled = !(ctx.database.pool && ctx.config.env === 'test');
    facade = new SessionCache(cache);
    facades.set(ctx.db, facade);
  }
  return facade;
}

/** Closes the cache of this app's database (the app closes); a later app makes a new one. */
export function closeSessionCache(ctx: SessionCacheContext): void {
  facades.get(ctx.db)?.close();
  facades.delete(ctx.db);
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
