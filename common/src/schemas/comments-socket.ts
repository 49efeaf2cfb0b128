// The comments' Socket.IO events (API.md): path /socket.io, namespace /, rooms manuscript-{id}.
import { z } from 'zod';
import {
  COMMENT_MESSAGES,
  comment,
  commentAuthor,
  commentDeleteResponse,
  commentText,
  highlight,
  highlightInput,
  selectionId,
} from './comments.ts';
import type { ManuscriptFlaggedEvent } from './moderation.ts';
import type { ThreadClientEvents, ThreadServerEvents } from './comments-threads.ts';
import { databaseId } from './fields.ts';

export const ROOM_PATTERN = /^manuscript-([1-9]\d{0,9})$/;
export const roomName = (manuscriptId: number): string => `manuscript-${manuscriptId}`;
export const room = z.string().regex(ROOM_PATTERN, COMMENT_MESSAGES.badRoom);

/** join / leave (client → server); an optional ack answers {ok, users?} or {ok: false, error}. */
export const roomPayload = z.object({ room });

/** highlight (client → server), ack {ok: true, ...Highlight}. */
export const highlightPayload = z.object({
  room,
  selection_id: selectionId,
  manuscript_id: databaseId,
  highlight: highlightInput,
});

/** save_comment (client → server): no id creates, an id updates; blank text deletes/cancels. */
export const saveCommentPayload = z.object({
  room,
  comment: z.object({
    id: databaseId.optional(),
    /** Required to create; ignored on update. */
    selection_id: selectionId.optional(),
    comment: commentText,
  }),
});

/** delete_comment (client → server), ack {ok: true, id, selection_id, highlight_removed}. */
export const deleteCommentPayload = z.object({
  room,
  comment: z.object({ id: databaseId }),
});

/** rank_comment (client → server), ack {ok: true, ...Comment}. */
export const rankCommentPayload = z.object({
  room,
  dir: z.enum(['up', 'down']),
  comment_id: databaseId,
});

/** Every write's acknowledgement. */
export const socketAckError = z.object({
  ok: z.literal(false),
  error: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** A join refused because the server process is full: try again in about this many seconds. */
  retry_after: z.number().optional(),
});
export type SocketAckError = z.infer<typeof socketAckError>;
export const highlightAck = z.union([highlight.extend({ ok: z.literal(true) }), socketAckError]);
/**
 * save_comment's ack: the saved comment spread (deleted: false), or what a blank save did
 * (deleted: true; id null when a never-saved comment was cancelled).
 */
export const saveCommentAck = z.union([
  comment.extend({ ok: z.literal(true), deleted: z.literal(false) }),
  z.object({
    ok: z.literal(true),
    deleted: z.literal(true),
    id: z.number().nullable(),
    selection_id: z.string(),
    highlight_removed: z.boolean(),
  }),
  socketAckError,
]);
export const deleteCommentAck = z.union([commentDeleteResponse, socketAckError]);
export const rankCommentAck = z.union([comment.extend({ ok: z.literal(true) }), socketAckError]);
export const joinAck = z.union([
  z.object({ ok: z.literal(true), room: z.string(), users: z.array(commentAuthor) }),
  socketAckError,
]);

/** new_highlight (server → client). */
export const newHighlightEvent = z.object({
  room: z.string(),
  highlight,
  selection_id: z.string(),
  manuscript_id: z.number(),
});
/** new_comment (server → client): a created or edited comment; upsert by id. */
export const newCommentEvent = z.object({ room: z.string(), comment });
/** delete_comment (server → client); id is null when a never-saved comment was cancelled. */
export const deleteCommentEvent = z.object({
  room: z.string(),
  comment: z.object({
    id: z.number().nullable(),
    selection_id: z.string(),
    manuscript_id: z.number(),
  }),
  highlight_removed: z.boolean(),
});
/** comment_ranked (server → client). */
export const commentRankedEvent = z.object({
  room: z.string(),
  dir: z.enum(['up', 'down']),
  comment_id: z.number(),
  rank: z.number(),
});
/**
 * join_room (server → client): to the joining socket only, `user` itself (null: an anonymous
 * reader) and `users`, everyone present. The others learn of it from the next `presence` event
 * (a join storm is not one broadcast per join); a `join_room` without `users` (one user to add)
 * is still understood by the client.
 */
export const joinRoomEvent = z.object({
  room: z.string(),
  user: commentAuthor.nullable(),
  users: z.array(commentAuthor).optional(),
});
/** leave_room (server → client): the user's last socket left the room. */
export const leaveRoomEvent = z.object({ room: z.string(), user: commentAuthor });
/**
 * presence (server → client): the changes to the strip since the last one, at most one per room
 * per PRESENCE_FLUSH_MS. Each user appears once, in `joined` (has a tab here now) or `left` (no
 * longer): the final state of everyone who came or went in that window.
 */
export const presenceEvent = z.object({
  room: z.string(),
  joined: z.array(commentAuthor),
  left: z.array(commentAuthor),
});
/** error (server → client): a refused join, or a removal from a room. */
export const socketErrorEvent = z.object({
  error: z.string(),
  room: z.string().optional(),
  event: z.string().optional(),
});

export type NewHighlightEvent = z.infer<typeof newHighlightEvent>;
export type NewCommentEvent = z.infer<typeof newCommentEvent>;
export type DeleteCommentEvent = z.infer<typeof deleteCommentEvent>;
export type CommentRankedEvent = z.infer<typeof commentRankedEvent>;
export type JoinRoomEvent = z.infer<typeof joinRoomEvent>;
export type LeaveRoomEvent = z.infer<typeof leaveRoomEvent>;
export type PresenceEvent = z.infer<typeof presenceEvent>;
export type SocketErrorEvent = z.infer<typeof socketErrorEvent>;

/** Events the server emits, for typed clients (socket.io's Socket<ServerToClient, …>). */
export interface ServerToClientEvents extends ThreadServerEvents {
  new_highlight: (event: NewHighlightEvent) => void;
  new_comment: (event: NewCommentEvent) => void;
  delete_comment: (event: DeleteCommentEvent) => void;
  comment_ranked: (event: CommentRankedEvent) => void;
  join_room: (event: JoinRoomEvent) => void;
  leave_room: (event: LeaveRoomEvent) => void;
  presence: (event: PresenceEvent) => void;
  error: (event: SocketErrorEvent) => void;
  /** A moderator flagged the manuscript or cleared its flag (schemas/moderation.ts). */
  manuscript_flagged: (event: ManuscriptFlaggedEvent) => void;
}

type Ack<T extends z.ZodType> = (answer: z.infer<T>) => void;
/** Events the client emits. */
export interface ClientToServerEvents extends ThreadClientEvents {
  join: (payload: z.input<typeof roomPayload>, ack?: Ack<typeof joinAck>) => void;
  leave: (payload: z.input<typeof roomPayload>, ack?: Ack<typeof joinAck>) => void;
  highlight: (payload: z.input<typeof highlightPayload>, ack: Ack<typeof highlightAck>) => void;
  save_comment: (
    payload: z.input<typeof saveCommentPayload>,
    ack: Ack<typeof saveCommentAck>,
  ) => void;
  delete_comment: (
    payload: z.input<typeof deleteCommentPayload>,
    ack: Ack<typeof deleteCommentAck>,
  ) => void;
  rank_comment: (
    payload: z.input<typeof rankCommentPayload>,
    ack: Ack<typeof rankCommentAck>,
  ) => void;
}
