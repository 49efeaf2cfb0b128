import type { CommentAuthor } from '@margins/common';
import type { RealtimeServer } from './index.ts';

/** Server-to-server questions (with the PostgreSQL adapter): answered from local sockets only. */
export interface InterServerEvents {
  /** Some distinct logged-in users of a room on that server, and its sockets in `ownRoom`. */
  presence: (
    room: string,
    ownRoom: string,
    ack: (answer: { users: CommentAuthor[]; own: number }) => void,
  ) => void;
  /** The ids of every logged-in user of a room on that server. */
  'room-users': (room: string, ack: (userIds: number[]) => void) => void;
  /** How many sockets a room (e.g. one user's room) has on that server. */
  'room-size': (room: string, ack: (size: number) => void) => void;
  /** Remove a user's (or, with null, the anonymous) sockets from a manuscript room. */
  evict: (manuscriptId: number, userId: number | null) => void;
}

/** The strip of connected users shows at most this many people (the first to come). */
const PRESENCE_LIMIT = 50;

/**
 * Who is in a room, across every server process. Asked server to server in one small question
 * per join (at most PRESENCE_LIMIT users per server, under PostgreSQL's 8000-byte NOTIFY), never
 * through fetchSockets(), which would ship every socket's handshake — cookies included — through
 * the database on each join, and grows with the room.
 */
export class Presence {
  constructor(
    private readonly io: RealtimeServer,
    /** True with the PostgreSQL adapter (several processes); false in memory. */
    private readonly clustered: boolean,
  ) {
    io.on('presence', (room, ownRoom, ack) =>
      ack({ users: this.localUsers(room), own: this.localSize(ownRoom) }),
    );
    io.on('room-users', (room, ack) => ack(this.localUserIds(room)));
    io.on('room-size', (room, ack) => ack(this.localSize(room)));
  }

  /** The distinct logged-in users of a room, in this process. */
  localUsers(room: string): CommentAuthor[] {
    const nsp = this.io.of('/');
    const byId = new Map<number, CommentAuthor>();
    for (const id of nsp.adapter.rooms.get(room) ?? []) {
      const user = nsp.sockets.get(id)?.data.user;
      if (user && !byId.has(user.id)) byId.set(user.id, user);
      if (byId.size >= PRESENCE_LIMIT) break;
    }
    return [...byId.values()];
  }

  localUserIds(room: string): number[] {
    const nsp = this.io.of('/');
    const ids = new Set<number>();
    for (const id of nsp.adapter.rooms.get(room) ?? []) {
      const user = nsp.sockets.get(id)?.data.user;
      if (user) ids.add(user.id);
    }
    return [...ids];
  }

  localSize(room: string): number {
    return this.io.of('/').adapter.rooms.get(room)?.size ?? 0;
  }

  /**
   * Who is present in a room (up to PRESENCE_LIMIT users), and how many sockets `ownRoom` (the
   * joining user's own room) has, on every server; a server that does not answer is left out.
   */
  async lookup(room: string, ownRoom: string): Promise<{ users: CommentAuthor[]; own: number }> {
    const byId = new Map(this.localUsers(room).map((user) => [user.id, user]));
    let own = this.localSize(ownRoom);
    for (const answer of await this.ask<{ users: CommentAuthor[]; own: number }>(
      'presence',
      room,
      ownRoom,
    )) {
      own += answer.own;
      for (const user of answer.users) {
        if (byId.size >= PRESENCE_LIMIT) break;
        if (!byId.has(user.id)) byId.set(user.id, user);
      }
    }
    return { users: [...byId.values()], own };
  }

  /**
   * `lookup`, answered within `patienceMs` even when another server is slow to answer (one
   * killed a moment ago is waited for until the adapter gives it up, ADAPTER_GIVE_UP_MS): then
   * with this process's own users and tabs, and `later` brings the whole answer.
   */
  async lookupPromptly(
    room: string,
    ownRoom: string,
    patienceMs: number,
  ): Promise<{
    users: CommentAuthor[];
    own: number;
    later: Promise<{ users: CommentAuthor[] }> | null;
  }> {
    const whole = this.lookup(room, ownRoom);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const impatient = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), patienceMs);
    });
    const first = await Promise.race([whole, impatient]);
    clearTimeout(timer);
    if (first) return { ...first, later: null };
    return { users: this.localUsers(room), own: this.localSize(ownRoom), later: whole };
  }

  /** The ids of every logged-in user in a room, on every server. */
  async allUserIds(room: string): Promise<number[]> {
    const remote = await this.ask<number[]>('room-users', room);
    return [...new Set([...this.localUserIds(room), ...remote.flat()])];
  }

  /** Sockets in a room on every server. */
  async size(room: string): Promise<number> {
    const remote = await this.ask<number>('room-size', room);
    return remote.reduce((sum, size) => sum + size, this.localSize(room));
  }

  private async ask<T>(
    event: 'presence' | 'room-users' | 'room-size',
    ...args: string[]
  ): Promise<T[]> {
    if (!this.clustered) return [];
    try {
      const emit = this.io.serverSideEmitWithAck.bind(this.io) as (
        event: string,
        ...rest: string[]
      ) => Promise<unknown[]>;
      return (await emit(event, ...args)) as T[];
    } catch (error) {
      // Some server did not answer in time: its answers arrive with the error; use what came.
      const partial = (error as { responses?: T[] }).responses;
      return Array.isArray(partial) ? partial : [];
    }
  }
}
