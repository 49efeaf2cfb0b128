import type { Socket } from 'socket.io';
import {
  deleteReplyPayload,
  reactPayload,
  roomName,
  saveReplyPayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@margins/common';
import type { AppContext, UserRow } from '../context.ts';
import type { EventBus } from '../events/bus.ts';
import { badRequest } from '../lib/http-errors.ts';
import type { ManuscriptRow } from '../modules/manuscripts/presenter.ts';
import { setReaction } from '../modules/comments/reaction-service.ts';
import { createReply, deleteReply, updateReply } from '../modules/comments/reply-service.ts';
import { presentReply, presentReplyOutcome } from '../modules/comments/thread-presenter.ts';
import { reactionSetOf } from '../modules/comments/thread-queries.ts';
import type { Realtime } from './index.ts';
import { userRoom } from './rooms.ts';

// Threads on the socket (issue 16): the fan-out of replies, resolutions and reactions, and the
// save_reply / delete_reply / react writes.

/** Who may see a reply (or a reaction on a comment or reply) when private comments are on. */
interface Audience {
  authorId: number;
  threadAuthorId: number | null;
}

/**
 * Emits to the manuscript's room; with private comments on and an audience, only to the
 * owner's and the audience's own sockets: nobody else learns the reply exists.
 */
function emitTo(
  realtime: Realtime,
  manuscript: ManuscriptRow,
  audience: Audience | null,
  originSocketId: string | undefined,
  emit: (target: ReturnType<NonNullable<Realtime['io']>['to']>) => void,
): void {
  const io = realtime.io;
  if (!io) return;
  const rooms =
    manuscript.privateComments && audience
      ? [
          ...new Set(
            [manuscript.userId, audience.authorId, audience.threadAuthorId]
              .filter((id): id is number => id !== null)
              .map((id) => userRoom(manuscript.id, id)),
          ),
        ]
      : [roomName(manuscript.id)];
  const target = io.to(rooms);
  emit(originSocketId ? target.except(originSocketId) : target);
}

/** The thread events' after-commit fan-out. */
export function subscribeThreadRealtime(bus: EventBus, realtime: Realtime): void {
  const name = 'realtime fan-out (threads)';
  for (const type of ['reply.created', 'reply.updated'] as const) {
    bus.subscribe(type, {
      name,
      afterCommit: (_ctx, { rows, originSocketId }) => {
        const { manuscript, reply, author } = rows;
        const room = roomName(manuscript.id);
        // Presented as for its writer: everyone it is sent to may see it.
        const presented = presentReply(
          reply,
          author,
          { id: reply.authorId, role: 'user' },
          manuscript,
        );
        if (!presented) return;
        emitTo(realtime, manuscript, reply, originSocketId, (target) =>
          target.emit('new_reply', { room, reply: presented }),
        );
      },
    });
  }
  bus.subscribe('reply.deleted', {
    name,
    afterCommit: (_ctx, { rows, payload, originSocketId }) => {
      const room = roomName(rows.manuscript.id);
      emitTo(realtime, rows.manuscript, rows.reply, originSocketId, (target) =>
        target.emit('delete_reply', {
          room,
          reply: {
            id: payload.replyId,
            comment_id: payload.commentId,
            manuscript_id: rows.manuscript.id,
          },
        }),
      );
    },
  });
  bus.subscribe('reply.ranked', {
    name,
    afterCommit: (_ctx, { rows, payload, originSocketId }) => {
      const room = roomName(rows.manuscript.id);
      emitTo(realtime, rows.manuscript, rows.reply, originSocketId, (target) =>
        target.emit('reply_ranked', {
          room,
          dir: payload.dir,
          reply_id: payload.replyId,
          comment_id: payload.commentId,
          rank: payload.rank,
        }),
      );
    },
  });
  bus.subscribe('comment.resolved', {
    name,
    afterCommit: (_ctx, { rows, payload, originSocketId }) => {
      const room = roomName(rows.manuscript.id);
      // Everyone sees the comment's card (its text or not), so everyone sees it was resolved.
      emitTo(realtime, rows.manuscript, null, originSocketId, (target) =>
        target.emit('comment_resolved', {
          room,
          comment_id: payload.commentId,
          resolved_at: payload.resolvedAt,
        }),
      );
    },
  });
  bus.subscribe('reaction.changed', {
    name,
    afterCommit: async (ctx, { rows, originSocketId }) => {
      const set = await reactionSetOf(ctx.db, rows.target.id);
      const room = roomName(rows.manuscript.id);
      emitTo(realtime, rows.manuscript, rows.target, originSocketId, (target) =>
        target.emit('reactions_changed', { room, ...set }),
      );
    },
  });
}

type ThreadSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
type Handle = (
  event: string,
  payload: unknown,
  ack: unknown,
  run: (viewer: UserRow | null) => Promise<object>,
) => void;

/** save_reply, delete_reply and react: the same services and policy as the HTTP calls. */
export function registerThreadHandlers(
  socket: ThreadSocket,
  handle: Handle,
  manuscriptIdOf: (room: string) => number,
  ctx: AppContext,
): void {
  socket.on('save_reply', (payload, ack) =>
    handle('save_reply', payload, ack, async (viewer) => {
      const { room, reply } = saveReplyPayload.parse(payload);
      const options = { originSocketId: socket.id, manuscriptId: manuscriptIdOf(room) };
      if (reply.id !== undefined) {
        return presentReplyOutcome(
          await updateReply(ctx, viewer, reply.id, reply.comment, options),
        );
      }
      if (reply.comment_id === undefined) {
        throw badRequest({ comment_id: ['Say which comment you reply to.'] });
      }
      return presentReplyOutcome(
        await createReply(ctx, viewer, reply.comment_id, reply.comment, options),
      );
    }),
  );
  socket.on('delete_reply', (payload, ack) =>
    handle('delete_reply', payload, ack, async (viewer) => {
      const { room, reply } = deleteReplyPayload.parse(payload);
      const deleted = await deleteReply(ctx, viewer, reply.id, {
        originSocketId: socket.id,
        manuscriptId: manuscriptIdOf(room),
      });
      return { id: deleted.id, comment_id: deleted.commentId };
    }),
  );
  socket.on('react', (payload, ack) =>
    handle('react', payload, ack, async (viewer) => {
      const { room, comment_id: commentId, reaction, on } = reactPayload.parse(payload);
      return setReaction(ctx, viewer, commentId, reaction, on, {
        originSocketId: socket.id,
        manuscriptId: manuscriptIdOf(room),
      });
    }),
  );
}
