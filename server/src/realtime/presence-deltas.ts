import {
  PRESENCE_FLUSH_MAX_MS,
  PRESENCE_FLUSH_MS,
  PRESENCE_FLUSH_MS_PER_SOCKET,
  type CommentAuthor,
} from '@margins/common';
import type { RealtimeServer } from './index.ts';

type Change = { user: CommentAuthor; present: boolean };

/** How long a room's changes gather before they go: longer for a room of many sockets. */
export function presenceWindowMs(sockets: number, flushMs = PRESENCE_FLUSH_MS): number {
  return Math.min(
    Math.max(flushMs, sockets * PRESENCE_FLUSH_MS_PER_SOCKET),
    Math.max(flushMs, PRESENCE_FLUSH_MAX_MS),
  );
}

/**
 * The strip's changes per room, sent as one `presence` event per room at most every
 * PRESENCE_FLUSH_MS (more in a big room: presenceWindowMs): a thousand readers arriving together
 * cost a few broadcasts, not a thousand (each to the whole room). Per user only the last change of the window counts — the user's
 * final state — so a join and a leave racing in one window end as "left", and a reader who
 * joined in between (their own snapshot may have shown that user) still hears of it.
 */
export class PresenceDeltas {
  private readonly pending = new Map<string, Map<number, Change>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly io: RealtimeServer,
    private readonly flushMs = PRESENCE_FLUSH_MS,
  ) {}

  joined(room: string, user: CommentAuthor): void {
    this.record(room, { user, present: true });
  }

  left(room: string, user: CommentAuthor): void {
    this.record(room, { user, present: false });
  }

  private record(room: string, change: Change): void {
    let changes = this.pending.get(room);
    if (!changes) this.pending.set(room, (changes = new Map()));
    changes.delete(change.user.id); // re-inserted last: the order of the final states
    changes.set(change.user.id, change);
    if (!this.timers.has(room)) {
      // The room's size on this process: what each broadcast costs here.
      const sockets = this.io.of('/').adapter.rooms.get(room)?.size ?? 0;
      const timer = setTimeout(() => this.flush(room), presenceWindowMs(sockets, this.flushMs));
      timer.unref();
      this.timers.set(room, timer);
    }
  }

  private flush(room: string): void {
    clearTimeout(this.timers.get(room));
    this.timers.delete(room);
    const changes = this.pending.get(room);
    this.pending.delete(room);
    if (!changes || changes.size === 0) return;
    const joined: CommentAuthor[] = [];
    const left: CommentAuthor[] = [];
    for (const { user, present } of changes.values()) (present ? joined : left).push(user);
    // Through the adapter: every process's sockets in the room, once.
    this.io.to(room).emit('presence', { room, joined, left });
  }
}
