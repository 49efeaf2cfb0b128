import { READ_ACCESS_CACHE_MAX, READ_ACCESS_CACHE_MS } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { CHANGE_CHANNELS, changeListenerOf } from '../../db/change-listener.ts';
import type { EventBus } from '../../events/bus.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';

/** A read the reader was allowed to write progress to a moment ago. */
export interface AllowedRead {
  manuscript: ManuscriptRow;
  bookmarkId: number;
}

interface Entry extends AllowedRead {
  expiresAt: number;
}

/** One cache per app (tests run many apps in one process). */
const caches = new WeakMap<AppContext, Map<string, Entry>>();

function cacheOf(ctx: AppContext): Map<string, Entry> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
    // Another process's change of access (this process's own: the bus, below).
    changeListenerOf(ctx).on(CHANGE_CHANNELS.access, (message) => announced(ctx, message));
  }
  return cache;
}

/** An access event announced by the events trigger (migration 0009), from any process. */
function announced(ctx: AppContext, message: string): void {
  let event: {
    name?: string;
    payload?: { manuscriptId?: number; userId?: number; userIds?: number[] };
  };
  try {
    event = JSON.parse(message) as typeof event;
  } catch {
    caches.get(ctx)?.clear();
    return;
  }
  const { name, payload = {} } = event;
  if (name === 'user.suspended' && typeof payload.userId === 'number') {
    forgetReader(ctx, payload.userId);
  } else if (typeof payload.manuscriptId === 'number') {
    const userIds =
      name === 'access.revoked' && Array.isArray(payload.userIds) ? payload.userIds : undefined;
    forgetReads(ctx, payload.manuscriptId, userIds);
  } else {
    caches.get(ctx)?.clear();
  }
}

const keyOf = (userId: number, manuscriptId: number) => `${userId}:${manuscriptId}`;

/**
 * The access decision of a reader's progress writes, kept READ_ACCESS_CACHE_MS: a reader
 * sends a batch every few seconds, and the full decision (manuscript, grant, questionnaire,
 * read) is five queries. A change of access in this process drops it at once (the events
 * below, and leaving the read); another process's change when its event row is written, through
 * the events trigger and the change listener (db/change-listener.ts): on PostgreSQL within a
 * round trip of its commit, and within READ_ACCESS_CACHE_MS at most should the listener be down.
 * A write to a read that is gone finds no row and goes back to the full decision
 * (recordReading).
 */
export async function allowedRead(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  decide: () => Promise<AllowedRead>,
): Promise<AllowedRead> {
  const cache = cacheOf(ctx);
  const key = keyOf(user.id, manuscriptId);
  const hit = cache.get(key);
  if (hit && hit.expiresAt > Date.now()) return hit;
  cache.delete(key);
  const allowed = await decide();
  cache.set(key, { ...allowed, expiresAt: Date.now() + READ_ACCESS_CACHE_MS });
  // Oldest first (insertion order): a full cache forgets the longest-held decision.
  if (cache.size > READ_ACCESS_CACHE_MAX) cache.delete(cache.keys().next().value!);
  return allowed;
}

/** Forgets the decisions about a manuscript: of some readers, or of everyone. */
export function forgetReads(ctx: AppContext, manuscriptId: number, userIds?: number[]): void {
  const cache = cacheOf(ctx);
  if (userIds) {
    for (const userId of userIds) cache.delete(keyOf(userId, manuscriptId));
    return;
  }
  for (const [key, entry] of cache) {
    if (entry.manuscript.id === manuscriptId) cache.delete(key);
  }
}

/** Forgets every decision about one reader (suspended). */
function forgetReader(ctx: AppContext, userId: number): void {
  const prefix = `${userId}:`;
  const cache = cacheOf(ctx);
  for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
}

/** Drops cached decisions when the access module (or moderation) changes who may read. */
export function subscribeReadAccessCache(bus: EventBus): void {
  const byManuscript = { name: 'read access cache' } as const;
  for (const type of [
    'manuscript.visibility_changed',
    'manuscript.gate_changed',
    'manuscript.archived',
    'manuscript.flagged',
  ] as const) {
    bus.subscribe(type, {
      ...byManuscript,
      afterCommit: (ctx, { payload }) => forgetReads(ctx, payload.manuscriptId),
    });
  }
  bus.subscribe('access.revoked', {
    ...byManuscript,
    afterCommit: (ctx, { payload }) => forgetReads(ctx, payload.manuscriptId, payload.userIds),
  });
  bus.subscribe('user.suspended', {
    ...byManuscript,
    afterCommit: (ctx, { payload }) => forgetReader(ctx, payload.userId),
  });
}
