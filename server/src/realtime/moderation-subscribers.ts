import { roomName } from '@margins/common';
import type { EventBus } from '../events/bus.ts';
import type { Realtime } from './index.ts';

/**
 * The realtime side of moderation, after commit: a manuscript's flag reaches the readers already
 * in its room (manuscript_flagged: the page shows or lifts the notice), a comment's flag goes
 * out as the comment itself (new_comment, presented per recipient, with its flag and reason),
 * and a suspended user's sockets close with the sessions that opened them.
 */
export function subscribeModerationRealtime(bus: EventBus, realtime: Realtime): void {
  const name = 'realtime moderation';
  bus.subscribe('manuscript.flagged', {
    name,
    afterCommit: (_ctx, { payload }) => {
      const room = roomName(payload.manuscriptId);
      realtime.io?.to(room).emit('manuscript_flagged', {
        room,
        manuscript_id: payload.manuscriptId,
        moderation_flag: payload.flagged,
        moderation_reason: payload.flagged ? payload.reason : null,
      });
    },
  });
  bus.subscribe('comment.flagged', {
    name,
    afterCommit: (_ctx, { rows }) => realtime.publish({ kind: 'comment', ...rows }),
  });
  bus.subscribe('user.suspended', {
    name,
    afterCommit: (_ctx, { payload }) => {
      for (const sessionId of payload.sessionIds) realtime.endSession(sessionId);
    },
  });
}
