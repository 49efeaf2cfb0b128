import { READ_ACCESS_CACHE_MAX, READ_ACCESS_CACHE_MS } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { CHANGE_CHANNELS } from '../../db/change-listener.ts';
import { defineCache, type Cache } from '../../lib/cache/cache.ts';
import type { EventBus } from '../../events/bus.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';

/** A read the reader was allowed to write progress to a moment ago. */
export interface AllowedRead {
  manuscript: ManuscriptRow;
  bookmarkId: number;
}

/**
 * The access decision of a reader's progress writes, kept READ_ACCESS_CACHE_MS: a reader
 * sends a batch every few seconds, and the full decision (manuscript, grant, questionnaire,
 * read) is five queries. A change of access in this process drops it at once (the events
 * below, and leaving the read); another process's change when its event row is written, through
 * the events trigger (migration 0009, margins_access) heard as a notice: on PostgreSQL within a
 * round trip of its commit, and within READ_ACCESS_CACHE_MS at most should the listener be down.
 * A write to a read that is gone finds no row and goes back to the full decision
 * (recordReading). Keyed `user:manuscript`, tagged by both.
 */
const readAccess = defineCache<AllowedRead>({
  name: 'read_access',
  dependsOn: {
    notices: {
      channel: CHANGE_CHANNELS.access,
      forget: (message, cache) => announced(cache, message),
    },
    ttlMs: READ_ACCESS_CACHE_MS,
  },
  limit: { entries: READ_ACCESS_CACHE_MAX },
  tagsOf: (key) => {
    const [userId, manuscriptId] = key.split(':');
    return [`u:${userId}`, `m:${manuscriptId}`];
  },
});

/** An access event announced by the events trigger (migration 0009), from any process. */
function announced(cache: Cache<AllowedRead>, message: string): void {
  let event: {
    name?: string;
    payload?: { manuscriptId?: number; userId?: number; userIds?: number[] };
  };
  try {
    event = JSON.parse(message) as typeof event;
  } catch {
    cache.clear();
    return;
  }
  const { name, payload = {} } = event;
  if (name === 'user.suspended' && typeof payload.userId === 'number') {
    cache.forgetTagged(`u:${payload.userId}`);
  } else if (typeof payload.manuscriptId === 'number') {
    const userIds =
      name === 'access.revoked' && Array.isArray(payload.userIds) ? payload.userIds : undefined;
    forgetIn(cache, payload.manuscriptId, userIds);
  } else {
    cache.clear();
  }
}

const keyOf = (userId: number, manuscriptId: number) => `${userId}:${manuscriptId}`;

/** The decision for this reader's writes to this manuscript's read: kept, or `decide()` now. */
export async function allowedRead(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  decide: () => Promise<AllowedRead>,
): Promise<AllowedRead> {
  return readAccess.of(ctx).get(keyOf(user.id, manuscriptId), decide);
}

function forgetIn(cache: Cache<AllowedRead>, manuscriptId: number, userIds?: number[]): void {
  if (!userIds) return cache.forgetTagged(`m:${manuscriptId}`);
  for (const userId of userIds) cache.forget(keyOf(userId, manuscriptId));
}

/** Forgets the decisions about a manuscript: of some readers, or of everyone. */
export function forgetReads(ctx: AppContext, manuscriptId: number, userIds?: number[]): void {
  forgetIn(readAccess.of(ctx), manuscriptId, userIds);
}

/** Forgets every decision about one reader (suspended). */
function forgetReader(ctx: AppContext, userId: number): void {
  readAccess.of(ctx).forgetTagged(`u:${userId}`);
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
