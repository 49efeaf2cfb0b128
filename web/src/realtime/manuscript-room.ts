import {
  roomName,
  SOCKET_OPTIONS,
  type ClientToServerEvents,
  type CommentAuthor,
  type CommentRankedEvent,
  type DeleteCommentEvent,
  type JoinRoomEvent,
  type LeaveRoomEvent,
  type ManuscriptFlaggedEvent,
  type NewCommentEvent,
  type NewHighlightEvent,
  type PresenceEvent,
  type ServerToClientEvents,
  type SocketErrorEvent,
} from '@margins/common';
import { ACK_TIMEOUT_MS, type MarginsSocket } from './socket.ts';

/** The window event a room's manuscript_flagged becomes (detail: ManuscriptFlaggedEvent). */
export const MANUSCRIPT_FLAGGED = 'margins:manuscript-flagged';

/** socket.io-client's rejection of a write whose socket dropped before its ack. */
const DISCONNECTED = 'socket has been disconnected';

/** connecting: first attempt; live: in the room; reconnecting: lost, trying again. */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting';

/** What the room reports to the page. */
export interface RoomHandlers {
  onStatus?: (status: ConnectionStatus) => void;
  /** The strip of connected users changed. */
  onPresence?: (users: CommentAuthor[]) => void;
  /** The room was joined; `again` after a reconnect (time to catch up on what was missed). */
  onJoined?: (again: boolean) => void;
  onNewHighlight?: (event: NewHighlightEvent) => void;
  onNewComment?: (event: NewCommentEvent) => void;
  onDeleteComment?: (event: DeleteCommentEvent) => void;
  onCommentRanked?: (event: CommentRankedEvent) => void;
  /** A refusal or an eviction (`error` event), or a failed join. */
  onError?: (message: string) => void;
}

/** The write events and the answer their ack carries. */
type WriteEvent = 'highlight' | 'save_comment' | 'delete_comment' | 'rank_comment';
type PayloadOf<E extends WriteEvent> = Parameters<ClientToServerEvents[E]>[0];
type AckOf<E extends WriteEvent> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

/**
 * One manuscript room over one socket: joins `manuscript-{id}` on connect and on every
 * reconnect, keeps the strip of connected users, passes the room's events on, and sends
 * writes with their acknowledgement. Not React: the hook wraps it, tests drive it directly.
 */
export class ManuscriptRoom {
  readonly room: string;
  private status: ConnectionStatus = 'connecting';
  private users: CommentAuthor[] = [];
  private joinedOnce = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(
    private readonly socket: MarginsSocket,
    manuscriptId: number,
    private readonly handlers: RoomHandlers,
  ) {
    this.room = roomName(manuscriptId);
  }

  /** True while the socket is connected (writes go over it; otherwise over HTTP). */
  get connected(): boolean {
    return this.socket.connected;
  }

  get currentStatus(): ConnectionStatus {
    return this.status;
  }

  /** Listens and connects. */
  start(): void {
    const { socket, handlers } = this;
    const on = <E extends keyof ListenMap>(event: E, listener: ListenMap[E]) => {
      (socket.on as (event: string, listener: unknown) => void)(event, listener);
      this.detach.push(() =>
        (socket.off as (event: string, listener: unknown) => void)(event, listener),
      );
    };
    const mine = (event: { room: string }) => event.room === this.room;

    on('connect', () => this.join());
    on('disconnect', (reason: string) => {
      // Our own disconnect() is the end; anything else is a drop to recover from.
      if (reason !== 'io client disconnect') this.setStatus('reconnecting');
    });
    on('connect_error', () => {
      this.setStatus(this.joinedOnce ? 'reconnecting' : 'connecting');
    });
    on('new_highlight', (event: NewHighlightEvent) => {
      if (mine(event)) handlers.onNewHighlight?.(event);
    });
    on('new_comment', (event: NewCommentEvent) => {
      if (mine(event)) handlers.onNewComment?.(event);
    });
    on('delete_comment', (event: DeleteCommentEvent) => {
      if (mine(event)) handlers.onDeleteComment?.(event);
    });
    on('comment_ranked', (event: CommentRankedEvent) => {
      if (mine(event)) handlers.onCommentRanked?.(event);
    });
    on('manuscript_flagged', (event: ManuscriptFlaggedEvent) => {
      // The page's moderation gate lives above the comments layer that owns this room: it
      // listens on the window (reader/use-live-moderation-flag.ts).
      if (mine(event)) window.dispatchEvent(new CustomEvent(MANUSCRIPT_FLAGGED, { detail: event }));
    });
    on('join_room', (event: JoinRoomEvent) => {
      if (!mine(event)) return;
      if (event.users) this.setUsers(event.users);
      else if (event.user && !this.users.some((user) => user.id === event.user!.id)) {
        this.setUsers([...this.users, event.user]);
      }
    });
    on('leave_room', (event: LeaveRoomEvent) => {
      if (!mine(event)) return;
      this.setUsers(this.users.filter((user) => user.id !== event.user.id));
    });
    on('presence', (event: PresenceEvent) => {
      if (!mine(event)) return;
      // Each user's final state in that window: drop who left, add who came (once).
      const gone = new Set([...event.left, ...event.joined].map((user) => user.id));
      this.setUsers([...this.users.filter((user) => !gone.has(user.id)), ...event.joined]);
    });
    on('error', (event: SocketErrorEvent) => {
      if (event.room && event.room !== this.room) return;
      handlers.onError?.(event.error);
    });
    if (socket.connected) this.join();
    else socket.connect();
  }

  /**
   * Listens to one more of the room's server events (the thread events of issue 16), only for
   * this room; returns the way to stop.
   */
  listen<E extends keyof ServerToClientEvents>(
    event: E,
    listener: (payload: Parameters<ServerToClientEvents[E]>[0]) => void,
  ): () => void {
    const handler = (payload: { room?: string }) => {
      if (payload.room === this.room) listener(payload as Parameters<ServerToClientEvents[E]>[0]);
    };
    (this.socket.on as (event: string, listener: unknown) => void)(event, handler);
    return () => (this.socket.off as (event: string, listener: unknown) => void)(event, handler);
  }

  /** Leaves the room and closes the socket. */
  stop(): void {
    if (this.retry) clearTimeout(this.retry);
    if (this.socket.connected) this.socket.emit('leave', { room: this.room });
    for (const undo of this.detach.splice(0)) undo();
    this.socket.disconnect();
  }

  /**
   * Sends a write with its acknowledgement; null when the socket is not connected (the caller
   * uses the HTTP call instead). A missing ack within ACK_TIMEOUT_MS rejects.
   */
  async send<E extends WriteEvent>(event: E, payload: PayloadOf<E>): Promise<AckOf<E> | null> {
    if (!this.socket.connected) return null;
    const timed = this.socket.timeout(ACK_TIMEOUT_MS) as unknown as {
      emitWithAck: (event: E, payload: PayloadOf<E>) => Promise<AckOf<E>>;
    };
    try {
      return await timed.emitWithAck(event, payload);
    } catch (error) {
      // Cut before its ack (a server draining closes sockets only once it has answered every
      // event it read): the write was not made, and the caller makes it over HTTP.
      if (!this.socket.connected && (error as Error).message === DISCONNECTED) return null;
      throw error;
    }
  }

  private join(): void {
    const again = this.joinedOnce;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.socket.emit('join', { room: this.room }, (answer) => {
      if (!answer.ok && answer.retry_after !== undefined) {
        // The server is full: say so, and come back later, spread like reconnections are.
        this.setStatus('reconnecting');
        this.handlers.onError?.(answer.error);
        const jitter = 1 + SOCKET_OPTIONS.randomizationFactor * (Math.random() * 2 - 1);
        this.retry = setTimeout(
          () => {
            if (this.socket.connected) this.join();
          },
          answer.retry_after * 1000 * jitter,
        );
        return;
      }
      if (!answer.ok) {
        // The server also sends an `error` event for a refused join: report it once.
        this.setStatus('reconnecting');
        return;
      }
      this.joinedOnce = true;
      this.setUsers(answer.users);
      this.setStatus('live');
      this.handlers.onJoined?.(again);
    });
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  private setUsers(users: CommentAuthor[]): void {
    this.users = users;
    this.handlers.onPresence?.(users);
  }
}

/** The listeners start() attaches (server events plus the socket's own). */
type ListenMap = ServerToClientEvents & {
  connect: () => void;
  disconnect: (reason: string) => void;
  connect_error: (error: Error) => void;
};
