import type { IncomingMessage } from 'node:http';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { Server } from 'socket.io';
import {
  COMMENT_MESSAGES,
  REALTIME_SOCKETS_PER_PROCESS,
  ROOM_PATTERN,
  roomName,
  type ClientToServerEvents,
  type CommentAuthor,
  type ServerToClientEvents,
} from '@margins/common';
import type { AppContext, RealtimeRooms } from '../context.ts';
import { schema } from '../db/index.ts';
import type { CommentEvent, WriteOptions } from '../modules/comments/events.ts';
import { can, type CommentPolicyUser } from '../modules/comments/policy.ts';
import { presentAuthor, presentComment, presentHighlight } from '../modules/comments/presenter.ts';
import { findManuscript } from '../modules/manuscripts/queries.ts';
import { loadReaderAccess } from '../modules/access/reader-access.ts';
import { registerHandlers, type JoinCapacity } from './handlers.ts';
import { EventsInFlight } from './in-flight.ts';
import { Presence, type InterServerEvents } from './presence.ts';
import { PresenceDeltas } from './presence-deltas.ts';
import { JoinCheck } from './join-check.ts';
import { RoomAccess } from './room-access.ts';
import { anonymousRoom, sessionRoom, userRoom } from './rooms.ts';
import { coalesceWebSocketWrites, type WriteCoalescer } from './write-coalescing.ts';

/** How often an idle process tells the others it is alive, and when they give it up (ms). */
const ADAPTER_HEARTBEAT_MS = 500;
export const ADAPTER_GIVE_UP_MS = 2_000;
/** How long a closing process waits for the socket events it is answering. */
const IN_FLIGHT_WAIT_MS = 2_000;

/** What a socket carries (kept small: with the PostgreSQL adapter it travels between servers). */
export interface SocketData {
  /** The logged-in user as the strip of connected users shows them, or null. */
  user: CommentAuthor | null;
}
export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

/**
 * Socket.IO on the app's HTTP server (path /socket.io): session-cookie auth, manuscript rooms
 * whose membership the server decides, and the fan-out of committed comment events, presented
 * for each kind of recipient (subscribers.ts calls publish() after commit). Without attach()
 * (a worker process) publish() does nothing.
 */
export class Realtime implements RealtimeRooms {
  io: RealtimeServer | null = null;
  private presence: Presence | null = null;
  private deltas: PresenceDeltas | null = null;
  private joinCheck: JoinCheck | null = null;
  /**
   * The sockets this process holds in manuscript rooms and its limit (a test may lower it):
   * past it, joins are told to come back later.
   */
  readonly capacity: JoinCapacity = { joined: new Set(), limit: REALTIME_SOCKETS_PER_PROCESS };
  private readonly inFlight = new EventsInFlight();
  private clustered = false;
  private adapterPool: pg.Pool | null = null;
  private coalescer: WriteCoalescer | null = null;
  private context: AppContext | null = null;

  private get ctx(): AppContext {
    if (!this.context) throw new Error('Realtime is not attached');
    return this.context;
  }

  /**
   * Attaches to app.server; with PostgreSQL, rooms span every server process (the adapter,
   * loaded only then: the embedded database's start does not pay for it).
   */
  async attach(app: FastifyInstance): Promise<void> {
    const ctx = app.ctx;
    this.context = ctx;
    const publicOrigin = new URL(ctx.config.publicUrl).origin;
    const io: RealtimeServer = new Server(app.server, {
      path: '/socket.io',
      serveClient: false,
      maxHttpBufferSize: 200_000,
      // A page of another site must not open a socket with our reader's cookie. A worker
      // publishes through the adapter but takes no sockets (its METRICS_PORT is for scrapers).
      allowRequest: (request, callback) =>
        callback(null, ctx.config.role !== 'worker' && isSameOrigin(request, publicOrigin)),
    });
    this.coalescer = coalesceWebSocketWrites(io);
    if (ctx.database.pool) {
      // Its own small pool: the adapter keeps one connection LISTENing for good, which must not
      // take one from the app's queries, nor keep the app's pool from ending.
      this.adapterPool = new pg.Pool({ ...ctx.database.pool.options, max: 4 });
      // A server that ends the LISTEN connection (restart, dropped database) must not crash us:
      // the adapter reconnects on "end".
      this.adapterPool.on('error', () => undefined);
      this.adapterPool.on('connect', (client) => client.on('error', () => undefined));
      const { createAdapter } = await import('@socket.io/postgres-adapter');
      io.adapter(
        createAdapter(this.adapterPool, {
          errorHandler: (error) => app.log.warn({ err: error }, 'socket.io postgres adapter'),
          // A process that died without a goodbye (kill -9; a drain says goodbye) is given up
          // after 2 s without a heartbeat, not 10: the questions waiting for its answer (who is
          // in a room, as a reconnected reader joins another process) end then, not after the
          // adapter's 5 s time-out. A heartbeat is one NOTIFY per 0.5 s of an idle process.
          heartbeatInterval: ADAPTER_HEARTBEAT_MS,
          heartbeatTimeout: ADAPTER_GIVE_UP_MS,
        }),
      );
    }
    this.clustered = ctx.database.pool !== null;
    this.presence = new Presence(io, this.clustered);
    this.deltas = new PresenceDeltas(io);
    io.on('evict', (manuscriptId, userId) => this.evictLocal(manuscriptId, userId));
    const access = new RoomAccess(ctx);
    this.joinCheck = new JoinCheck(ctx, access);
    registerHandlers(
      io,
      {
        presence: this.presence,
        deltas: this.deltas,
        capacity: this.capacity,
        inFlight: this.inFlight,
        joinCheck: this.joinCheck,
        access,
      },
      ctx,
      app,
    );
    this.io = io;
    app.addHook('preClose', async () => this.close());
  }

  /**
   * Closes every local connection and stops the adapter (the HTTP server is Fastify's).
   * Closing the transports — not a socket.io "disconnect" packet, after which clients stay
   * away for good — lets every reader reconnect by itself once a server is back.
   */
  async close(): Promise<void> {
    const io = this.io;
    if (!io) return;
    this.io = null;
    // The events being answered get their acks first (a saved comment is acknowledged).
    await this.inFlight.settled(IN_FLIGHT_WAIT_MS);
    this.coalescer?.release();
    io.engine.close();
    await io.of('/').adapter.close();
    // The adapter's last NOTIFY (it is closing) may still be on its way.
    await this.adapterPool?.end().catch(() => undefined);
    this.adapterPool = null;
  }

  /** The sockets connected to this process and the manuscript rooms they are in (for /metrics). */
  localCounts(): { sockets: number; rooms: number } {
    const namespace = this.io?.of('/');
    if (!namespace) return { sockets: 0, rooms: 0 };
    let rooms = 0;
    for (const room of namespace.adapter.rooms.keys()) if (ROOM_PATTERN.test(room)) rooms++;
    return { sockets: namespace.sockets.size, rooms };
  }

  /** Sends a committed event to its manuscript room, presented per kind of recipient. */
  publish(event: CommentEvent, options: WriteOptions = {}): void {
    const io = this.io;
    if (!io) return;
    const manuscript = event.manuscript;
    const room = roomName(manuscript.id);
    const to = (rooms: string[], except: string[] = []) => {
      const skipped = options.originSocketId ? [...except, options.originSocketId] : except;
      const target = io.to(rooms);
      return skipped.length > 0 ? target.except(skipped) : target;
    };
    // With private comments on, the writer and the owner get the text; the others do not.
    const byView = <T>(
      writerId: number,
      emit: (target: ReturnType<typeof to>, viewer: CommentPolicyUser) => T,
    ) => {
      if (!manuscript.privateComments) {
        emit(to([room]), null);
        return;
      }
      const insiders = [
        ...new Set([userRoom(manuscript.id, manuscript.userId), userRoom(manuscript.id, writerId)]),
      ];
      emit(to(insiders), { id: writerId, role: 'user' });
      emit(to([room], insiders), null);
    };
    switch (event.kind) {
      case 'highlight': {
        const { highlight } = event;
        byView(highlight.userId, (target, viewer) =>
          target.emit('new_highlight', {
            room,
            highlight: presentHighlight(highlight, viewer, manuscript),
            selection_id: highlight.id,
            manuscript_id: manuscript.id,
          }),
        );
        return;
      }
      case 'comment': {
        const { comment, author } = event;
        byView(comment.authorId, (target, viewer) =>
          target.emit('new_comment', {
            room,
            comment: presentComment(comment, author, viewer, manuscript),
          }),
        );
        return;
      }
      case 'delete':
        to([room]).emit('delete_comment', {
          room,
          comment: {
            id: event.commentId,
            selection_id: event.selectionId,
            manuscript_id: manuscript.id,
          },
          highlight_removed: event.highlightRemoved,
        });
        return;
      case 'rank':
        to([room]).emit('comment_ranked', {
          room,
          dir: event.dir,
          comment_id: event.commentId,
          rank: event.rank,
        });
        return;
    }
  }

  /**
   * Disconnects every socket opened with a session that has just ended (logout), in every
   * server process: a socket never outlives the session that authenticated it.
   */
  endSession(sessionId: string): void {
    this.io?.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  /**
   * Removes a user's sockets from a manuscript room (their access was revoked): they get an
   * `error` event, the others see them leave in the room's next `presence`. Works across server
   * processes.
   */
  async evictFromRoom(manuscriptId: number, userId: number): Promise<void> {
    const io = this.io;
    if (!io) return;
    this.joinCheck?.changed(manuscriptId);
    this.evictEverywhere(manuscriptId, userId);
    const [user] = await this.ctx.db
      .select({
        id: schema.users.id,
        displayName: schema.users.displayName,
        handle: schema.users.handle,
        pictureMediaId: schema.users.pictureMediaId,
      })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    if (user) this.deltas?.left(roomName(manuscriptId), presentAuthor(user));
  }

  /**
   * Each process removes its own sockets, in order (error, then leave): a room broadcast followed
   * by socketsLeave() could overtake it, as the adapter publishes before delivering locally.
   */
  private evictEverywhere(manuscriptId: number, userId: number | null): void {
    this.evictLocal(manuscriptId, userId);
    if (this.clustered) this.io?.serverSideEmit('evict', manuscriptId, userId);
  }

  private evictLocal(manuscriptId: number, userId: number | null): void {
    const nsp = this.io?.of('/');
    if (!nsp) return;
    const room = roomName(manuscriptId);
    const own = userId === null ? anonymousRoom(manuscriptId) : userRoom(manuscriptId, userId);
    for (const socketId of [...(nsp.adapter.rooms.get(own) ?? [])]) {
      const socket = nsp.sockets.get(socketId);
      if (!socket) continue;
      socket.emit('error', { error: COMMENT_MESSAGES.accessRevoked, room, event: 'evicted' });
      void socket.leave(room);
      void socket.leave(own);
      if (![...socket.rooms].some((name) => ROOM_PATTERN.test(name))) {
        this.capacity.joined.delete(socketId);
      }
    }
  }

  /**
   * Checks everyone in a manuscript room against the reading policy again (after a visibility
   * change, say) and removes those who may no longer read it, anonymous readers included.
   * Returns the ids of the users removed, and whether the anonymous readers were.
   */
  async recheckRoom(manuscriptId: number): Promise<{ users: number[]; anonymous: boolean }> {
    const removed = { users: [] as number[], anonymous: false };
    const io = this.io;
    if (!io || !this.presence) return removed;
    this.joinCheck?.changed(manuscriptId);
    const room = roomName(manuscriptId);
    const manuscript = await findManuscript(this.ctx.db, manuscriptId);
    const mayRead = async (viewer: typeof schema.users.$inferSelect | null) =>
      manuscript !== null &&
      can(viewer, 'list', null, manuscript, await loadReaderAccess(this.ctx, viewer, manuscript));
    // Everyone in the room, not just the strip's first few: ask each server for its own.
    for (const userId of await this.presence.allUserIds(room)) {
      const [user] = await this.ctx.db
        .select()
        .from(schema.users)
        .where(eq(schema.users.id, userId));
      if (user && (await mayRead(user))) continue;
      await this.evictFromRoom(manuscriptId, userId);
      removed.users.push(userId);
    }
    const anonymous = anonymousRoom(manuscriptId);
    if ((await this.presence.size(anonymous)) > 0 && !(await mayRead(null))) {
      this.evictEverywhere(manuscriptId, null);
      removed.anonymous = true;
    }
    return removed;
  }
}

/** A browser request from our own pages (or no Origin at all: not a browser page). */
function isSameOrigin(request: IncomingMessage, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  const host = request.headers.host;
  return (
    origin === publicOrigin ||
    (!!host && (origin === `http://${host}` || origin === `https://${host}`))
  );
}
