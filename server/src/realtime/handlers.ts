import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import {
  COMMENT_MESSAGES,
  deleteCommentPayload,
  highlightPayload,
  MESSAGES,
  rankCommentPayload,
  REALTIME_BUSY_RETRY_SECONDS,
  ROOM_PATTERN,
  roomPayload,
  SESSION_COOKIE,
  saveCommentPayload,
  type ClientToServerEvents,
  type CommentAuthor,
  type ServerToClientEvents,
  type SocketAckError,
} from '@margins/common';
import type { AppContext, UserRow } from '../context.ts';
import { badRequest, HttpError } from '../lib/http-errors.ts';
import { assertPlainInput } from '../plugins/input-guard.ts';
import { sessionIdOfCookie } from '../modules/auth/sessions.ts';
import {
  createComment,
  deleteComment,
  updateComment,
} from '../modules/comments/comment-service.ts';
import { createHighlight } from '../modules/comments/highlight-service.ts';
import { presentAuthor, presentComment, presentHighlight } from '../modules/comments/presenter.ts';
import { fieldErrorsOf } from '../lib/field-errors.ts';
import { rankComment } from '../modules/comments/vote-service.ts';
import { countCommentWrite } from '../modules/comments/write-limit.ts';
import type { RealtimeServer, SocketData } from './index.ts';
import type { EventsInFlight } from './in-flight.ts';
import { withRequestId } from '../lib/request-context.ts';
import type { InterServerEvents, Presence } from './presence.ts';
import type { PresenceDeltas } from './presence-deltas.ts';
import type { JoinCheck } from './join-check.ts';
import type { RoomAccess } from './room-access.ts';
import { SessionBatch } from './session-batch.ts';
import { anonymousRoom, roomName, sessionRoom, userRoom } from './rooms.ts';
import { registerThreadHandlers } from './threads.ts';

type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
type Ack = (answer: object) => void;

/** The manuscript id of a room name; a bad room is a 400. */
function manuscriptIdOf(room: string): number {
  const match = ROOM_PATTERN.exec(room);
  if (!match) throw badRequest({ room: [COMMENT_MESSAGES.badRoom] });
  return Number(match[1]);
}

/** A join refused because this process holds its limit of sockets: come back later. */
class BusyError extends Error {
  constructor(readonly retryAfter: number) {
    super(MESSAGES.realtimeBusy(retryAfter));
  }
}

/** Any failure as an ack: {ok: false, error, errors?}; never a stack trace. */
function failure(error: unknown, app: FastifyInstance): SocketAckError {
  if (error instanceof BusyError) {
    return { ok: false, error: error.message, retry_after: error.retryAfter };
  }
  if (error instanceof HttpError) {
    return { ok: false, error: error.message, ...(error.errors ? { errors: error.errors } : {}) };
  }
  if (error instanceof z.ZodError) {
    return { ok: false, error: MESSAGES.checkFormFields, errors: fieldErrorsOf(error) };
  }
  app.log.error({ err: error }, 'socket event failed');
  return { ok: false, error: MESSAGES.serverError };
}

/** The events that write (each counts against the user's write limit, as over HTTP). */
const WRITES = new Set([
  'highlight',
  'save_comment',
  'delete_comment',
  'rank_comment',
  'save_reply',
  'delete_reply',
  'react',
]);

/** What joins and leaves work with (realtime/index.ts makes them). */
interface RoomParts {
  presence: Presence;
  deltas: PresenceDeltas;
  capacity: JoinCapacity;
  joinCheck: JoinCheck;
  /** The writes' scope: the viewer's reading facts kept between their events. */
  access: RoomAccess;
  /** The events being answered (a drain waits for them). */
  inFlight: EventsInFlight;
}

/** How long the handshake's own session lookup stands for the socket's first join. */
const HANDSHAKE_VIEWER_MS = 2_000;

/**
 * How long a join waits for the other servers to say who is in the room: they answer in a few
 * ms; one just killed would hold the join until it is given up (up to 3 s).
 */
const JOIN_PRESENCE_PATIENCE_MS = 100;

/** The sockets this process holds in manuscript rooms, and how many it may. */
export interface JoinCapacity {
  readonly joined: Set<string>;
  limit: number;
}

/**
 * Session-cookie auth, join/leave with the reading policy, the strip of connected users, and
 * the four writes — each through the same service and policy as its HTTP call, answered by ack.
 */
export function registerHandlers(
  io: RealtimeServer,
  { presence, deltas, capacity, joinCheck, access, inFlight }: RoomParts,
  ctx: AppContext,
  app: FastifyInstance,
): void {
  // The session id of the handshake's signed cookie (a socket's cookie never changes), kept out
  // of socket.data (which may travel): every event looks its user up again by it, without
  // checking the signature and hashing the token each time.
  const sessionIds = new WeakMap<RealtimeSocket, string | null>();
  // The session the handshake was made with: logging out of it disconnects the socket.
  const sessions = new WeakMap<RealtimeSocket, string>();
  // The handshake's user, for the join that follows it at once (a page opens, connects and
  // joins in one go): one session lookup per arriving reader, not two. Later events look again.
  const handshakes = new WeakMap<RealtimeSocket, { user: UserRow; at: number }>();
  const sessionBatch = new SessionBatch(ctx);

  /**
   * The socket's user as of now: a session ended since the handshake makes them anonymous.
   * Looked up through the batch: the events of a busy room read in one turn share one query.
   */
  const viewerOf = async (socket: RealtimeSocket): Promise<UserRow | null> => {
    const sessionId = sessionIds.get(socket);
    return sessionId ? sessionBatch.userOf(sessionId) : null;
  };

  io.use(async (socket, next) => {
    try {
      const cookie = app.parseCookie(socket.request.headers.cookie ?? '')[SESSION_COOKIE];
      const sessionId = sessionIdOfCookie((value) => app.unsignCookie(value), cookie);
      sessionIds.set(socket, sessionId);
      const user = sessionId ? await sessionBatch.userOf(sessionId) : null;
      if (sessionId && user) {
        sessions.set(socket, sessionId);
        handshakes.set(socket, { user, at: Date.now() });
      }
      socket.data.user = user ? presentAuthor(user) : null;
      next();
    } catch (error) {
      app.log.error({ err: error }, 'socket auth failed');
      next(new Error(MESSAGES.serverError));
    }
  });

  io.on('connection', (socket) => {
    const sessionId = sessions.get(socket);
    if (sessionId) void socket.join(sessionRoom(sessionId));
    /** Runs one event: validates, answers the ack with the result or {ok: false, error}. */
    const handle = (
      event: string,
      payload: unknown,
      ack: unknown,
      run: (viewer: UserRow | null) => Promise<object>,
    ) => {
      // Only events with a handler reach here: a client cannot add names to the metrics.
      ctx.metrics.socketEvent(event);
      const handshake = handshakes.get(socket);
      handshakes.delete(socket);
      const fresh =
        event === 'join' && handshake && Date.now() - handshake.at < HANDSHAKE_VIEWER_MS
          ? handshake.user
          : undefined;
      const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => undefined;
      // Each event is a request of its own: what it causes logs its id (lib/request-context.ts).
      inFlight.track(
        withRequestId(randomUUID(), async () => {
          try {
            // The HTTP routes get this from plugins/input-guard.ts; socket events check here.
            assertPlainInput(payload, { multiLine: true });
            const viewer = fresh ?? (await viewerOf(socket));
            if (viewer && WRITES.has(event)) await countCommentWrite(ctx, viewer.id);
            reply({ ok: true, ...(await run(viewer)) });
          } catch (error) {
            const answer = failure(error, app);
            // A refused join is also an `error` event (API.md), for clients that send no ack.
            if (event === 'join' && !(error instanceof BusyError)) {
              const room = (payload as { room?: unknown } | null)?.room;
              socket.emit('error', {
                error: answer.error,
                event,
                ...(typeof room === 'string' ? { room } : {}),
              });
            }
            reply(answer);
          }
        }),
      );
    };

    socket.on('join', (payload, ack) =>
      handle('join', payload, ack, async (viewer) => {
        const { room } = roomPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(room);
        // Full: this join waits (the client retries with jitter) rather than slow every room.
        if (!capacity.joined.has(socket.id) && capacity.joined.size >= capacity.limit) {
          throw new BusyError(REALTIME_BUSY_RETRY_SECONDS);
        }
        const checked = await joinCheck.scope(viewer, manuscriptId);
        const scope = await checked.settle();
        const me = scope.viewer ? presentAuthor(scope.viewer) : null;
        socket.data.user = me;
        const already = socket.rooms.has(room);
        const own = me ? userRoom(manuscriptId, me.id) : anonymousRoom(manuscriptId);
        if (!socket.connected) return { room, users: [] }; // gone while we checked
        await socket.join([room, own]);
        capacity.joined.add(socket.id);
        const {
          users,
          own: tabs,
          later,
        } = await presence.lookupPromptly(room, own, JOIN_PRESENCE_PATIENCE_MS);
        // The full strip once, to this socket; the others get it in the room's next delta. A
        // server slow to say who it has (a dead one) does not hold the join up: its part of
        // the strip follows.
        socket.emit('join_room', { room, user: me, users });
        void later?.then((whole) => {
          if (socket.rooms.has(room))
            socket.emit('join_room', { room, user: me, users: whole.users });
        });
        // A second tab of someone already here is not news for the strip.
        if (me && !already && tabs === 1) deltas.joined(room, me);
        return { room, users };
      }),
    );

    socket.on('leave', (payload, ack) =>
      handle('leave', payload, ack, async () => {
        const { room } = roomPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(room);
        if (socket.rooms.has(room)) await leaveRoom(socket, manuscriptId);
        if (![...socket.rooms].some((name) => ROOM_PATTERN.test(name))) {
          capacity.joined.delete(socket.id);
        }
        return { room, users: [] };
      }),
    );

    socket.on('highlight', (payload, ack) =>
      handle('highlight', payload, ack, async (viewer) => {
        const input = highlightPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(input.room);
        if (manuscriptId !== input.manuscript_id) {
          throw badRequest({ manuscript_id: [COMMENT_MESSAGES.badRoom] });
        }
        const scope = await access.scopeIn(viewer, manuscriptId);
        const row = await createHighlight(ctx, scope, input.selection_id, input.highlight, {
          originSocketId: socket.id,
        });
        return presentHighlight(row, scope.viewer, scope.manuscript);
      }),
    );

    socket.on('save_comment', (payload, ack) =>
      handle('save_comment', payload, ack, async (viewer) => {
        const { room, comment } = saveCommentPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(room);
        const options = { originSocketId: socket.id, manuscriptId };
        let outcome;
        if (comment.id !== undefined) {
          outcome = await updateComment(ctx, viewer, comment.id, comment.comment, options);
        } else {
          if (!comment.selection_id) {
            throw badRequest({ selection_id: [COMMENT_MESSAGES.selectionMissing] });
          }
          const scope = await access.scopeIn(viewer, manuscriptId);
          outcome = await createComment(
            ctx,
            scope,
            { highlight: { selection_id: comment.selection_id }, comment: comment.comment },
            options,
          );
        }
        const { scope, deleted } = outcome;
        if (deleted) {
          return {
            deleted: true,
            id: deleted.id,
            selection_id: deleted.selectionId,
            highlight_removed: deleted.highlightRemoved,
          };
        }
        return {
          deleted: false,
          ...presentComment(
            outcome.comment!,
            outcome.author!,
            scope.viewer,
            scope.manuscript,
            outcome.myVote,
          ),
        };
      }),
    );

    socket.on('delete_comment', (payload, ack) =>
      handle('delete_comment', payload, ack, async (viewer) => {
        const { room, comment } = deleteCommentPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(room);
        const deleted = await deleteComment(ctx, viewer, comment.id, {
          originSocketId: socket.id,
          manuscriptId,
        });
        return {
          id: deleted.id,
          selection_id: deleted.selectionId,
          highlight_removed: deleted.highlightRemoved,
        };
      }),
    );

    socket.on('rank_comment', (payload, ack) =>
      handle('rank_comment', payload, ack, async (viewer) => {
        const { room, dir, comment_id: commentId } = rankCommentPayload.parse(payload);
        const manuscriptId = manuscriptIdOf(room);
        const ranked = await rankComment(ctx, viewer, commentId, dir, {
          originSocketId: socket.id,
          manuscriptId,
        });
        return presentComment(
          ranked.comment,
          ranked.author,
          ranked.scope.viewer,
          ranked.scope.manuscript,
          ranked.myVote,
        );
      }),
    );

    registerThreadHandlers(socket, handle, manuscriptIdOf, ctx);

    // On disconnect the socket leaves its rooms; tell each room if that was the user's last tab.
    let leaving: number[] = [];
    socket.on('disconnecting', () => {
      leaving = [...socket.rooms].flatMap((room) => {
        const match = ROOM_PATTERN.exec(room);
        return match ? [Number(match[1])] : [];
      });
    });
    socket.on('disconnect', () => {
      capacity.joined.delete(socket.id);
      const user = socket.data.user;
      if (!user) return;
      for (const manuscriptId of leaving) {
        void announceLeave(manuscriptId, user).catch((error: unknown) =>
          app.log.warn({ err: error }, 'leave_room after disconnect'),
        );
      }
    });
  });

  /** Takes a socket out of a room; tells the room when the user has no other socket there. */
  async function leaveRoom(socket: RealtimeSocket, manuscriptId: number): Promise<void> {
    const user = socket.data.user;
    await socket.leave(roomName(manuscriptId));
    await socket.leave(user ? userRoom(manuscriptId, user.id) : anonymousRoom(manuscriptId));
    if (user) await announceLeave(manuscriptId, user);
  }

  async function announceLeave(manuscriptId: number, user: CommentAuthor): Promise<void> {
    if ((await presence.size(userRoom(manuscriptId, user.id))) > 0) return;
    deltas.left(roomName(manuscriptId), user);
  }
}
