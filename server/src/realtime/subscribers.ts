import type { EventBus } from '../events/bus.ts';
import type { Realtime } from './index.ts';
import { subscribeThreadRealtime } from './threads.ts';

/**
 * The realtime side of the domain events, after commit: comment changes fan out to the
 * manuscript's room (presented per recipient by publish()); a change of who may read re-checks
 * the room; revoked readers are evicted. Each runs in the writer's process, right after the
 * commit, as the direct calls did (same fan-out latency).
 */
export function subscribeRealtime(bus: EventBus, realtime: Realtime): void {
  const name = 'realtime fan-out';
  bus.subscribe('highlight.created', {
    name,
    afterCommit: (_ctx, { rows, originSocketId }) =>
      realtime.publish({ kind: 'highlight', ...rows }, { originSocketId }),
  });
  for (const type of ['comment.created', 'comment.updated'] as const) {
    bus.subscribe(type, {
      name,
      afterCommit: (_ctx, { rows, originSocketId }) =>
        realtime.publish({ kind: 'comment', ...rows }, { originSocketId }),
    });
  }
  bus.subscribe('comment.deleted', {
    name,
    afterCommit: (_ctx, { rows, payload, originSocketId }) =>
      realtime.publish(
        {
          kind: 'delete',
          manuscript: rows.manuscript,
          commentId: payload.commentId,
          selectionId: payload.selectionId,
          highlightRemoved: payload.highlightRemoved,
        },
        { originSocketId },
      ),
  });
  bus.subscribe('comment.ranked', {
    name,
    afterCommit: (_ctx, { rows, payload, originSocketId }) =>
      realtime.publish(
        {
          kind: 'rank',
          manuscript: rows.manuscript,
          commentId: payload.commentId,
          dir: payload.dir,
          rank: payload.rank,
        },
        { originSocketId },
      ),
  });

  subscribeThreadRealtime(bus, realtime);

  // Who may read changed: everyone in the room is checked again (anonymous readers included).
  const recheck = { name: 'room re-check', afterCommit: recheckRoom(realtime) };
  bus.subscribe('manuscript.visibility_changed', recheck);
  bus.subscribe('manuscript.gate_changed', recheck);
  bus.subscribe('manuscript.archived', recheck);
  bus.subscribe('access.revoked', {
    name: 'room eviction',
    afterCommit: async (_ctx, { payload }) => {
      for (const userId of payload.userIds) {
        // One failed eviction must not spare the others; the room's own checks still refuse
        // that reader's next event.
        await realtime.evictFromRoom(payload.manuscriptId, userId).catch(() => undefined);
      }
    },
  });
}

const recheckRoom =
  (realtime: Realtime) =>
  async (_ctx: unknown, { payload }: { payload: { manuscriptId: number } }): Promise<void> => {
    await realtime.recheckRoom(payload.manuscriptId);
  };
