import { z } from 'zod';
import { INVITE_TYPES } from '@margins/common';
import type { schema } from '../db/index.ts';

// The domain events: what happened, said once by the writer; the subscribers (subscribers.ts of
// realtime and notifications, later an audit log, a search index…) do the rest. Each has an id
// (its type), a zod payload schema and an actor. A payload holds ids and values only, so a
// subscriber that runs elsewhere or later reads what it needs; `rows` (below) hands the rows the
// writer already has to the live fan-out, which must not read them again.

const id = z.number().int().positive();
const manuscriptId = id.describe('The manuscript the event is about.');
const selectionId = z.string().min(1).describe('The highlight (selection) id.');

/** Every event type and its payload schema. */
export const EVENT_PAYLOADS = {
  /** The author changed who may read (SPEC invite type): readers who may not any more must go. */
  'manuscript.visibility_changed': z.object({
    manuscriptId,
    from: z.enum(INVITE_TYPES),
    to: z.enum(INVITE_TYPES),
  }),
  /** The manuscript was archived (deleted for its readers). */
  'manuscript.archived': z.object({ manuscriptId }),
  /** A gate in front of the text changed (a questionnaire added or edited). */
  'manuscript.gate_changed': z.object({ manuscriptId }),
  /** A reader may now read: an approved request or questionnaire answer. */
  'access.granted': z.object({
    manuscriptId,
    userId: id.describe('The reader who may now read.'),
    via: z.enum(['request', 'questionnaire']),
  }),
  /** These readers lost their access (invite, link or request removed, invite declined…). */
  'access.revoked': z.object({ manuscriptId, userIds: z.array(id) }),
  /** A new highlight (the `highlight` call, or the first comment on a new selection). */
  'highlight.created': z.object({ manuscriptId, selectionId }),
  /** A new comment, or new text for one (same fan-out: new_comment). */
  'comment.created': z.object({ manuscriptId, commentId: id, selectionId }),
  'comment.updated': z.object({ manuscriptId, commentId: id, selectionId }),
  /** A comment deleted, or a new one cancelled (commentId null) that removed its highlight. */
  'comment.deleted': z.object({
    manuscriptId,
    commentId: id.nullable(),
    selectionId,
    highlightRemoved: z.boolean(),
  }),
  /** A vote changed a comment's rank. */
  'comment.ranked': z.object({
    manuscriptId,
    commentId: id,
    dir: z.enum(['up', 'down']),
    rank: z.number().int(),
  }),
  /** A moderator flagged the manuscript (flagged) or cleared its flag. */
  'manuscript.flagged': z.object({
    manuscriptId,
    flagged: z.boolean(),
    reason: z.string().nullable(),
  }),
  /** A moderator flagged a comment or cleared its flag (same fan-out as an edit). */
  'comment.flagged': z.object({ manuscriptId, commentId: id, flagged: z.boolean() }),
  /** A moderator suspended a user: these sessions were deleted (their sockets must close). */
  'user.suspended': z.object({
    userId: id,
    sessionIds: z.array(z.string()).describe('The deleted sessions (ids as stored).'),
  }),
  /** A suspension was lifted. */
  'user.unsuspended': z.object({ userId: id }),
  /** Threads (issue 16): a reply to a comment written, edited, deleted or voted on. */
  'reply.created': z.object({ manuscriptId, replyId: id, commentId: id }),
  'reply.updated': z.object({ manuscriptId, replyId: id, commentId: id }),
  'reply.deleted': z.object({ manuscriptId, replyId: id, commentId: id }),
  'reply.ranked': z.object({
    manuscriptId,
    replyId: id,
    commentId: id,
    dir: z.enum(['up', 'down']),
    rank: z.number().int(),
  }),
  /** The owner resolved (resolvedAt set) or reopened (null) a comment's thread. */
  'comment.resolved': z.object({
    manuscriptId,
    commentId: id,
    resolvedAt: z.string().nullable(),
  }),
  /** Someone added or removed a reaction on a comment or reply. */
  'reaction.changed': z.object({ manuscriptId, commentId: id }),
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;
export type EventPayload<Type extends EventType> = z.infer<(typeof EVENT_PAYLOADS)[Type]>;

type ManuscriptRow = typeof schema.manuscripts.$inferSelect;
type CommentRow = typeof schema.comments.$inferSelect;
type HighlightRow = typeof schema.highlights.$inferSelect;
type UserRow = typeof schema.users.$inferSelect;
/** The part of a user shown beside a comment. */
export type EventAuthor = Pick<UserRow, 'id' | 'displayName' | 'handle' | 'pictureMediaId'>;

/** The committed rows the writer hands to in-process subscribers (never stored or sent). */
export interface EventRows {
  'manuscript.visibility_changed': undefined;
  'manuscript.archived': undefined;
  'manuscript.gate_changed': undefined;
  'access.granted': { reader: UserRow; manuscript: Pick<ManuscriptRow, 'id' | 'title'> };
  'access.revoked': undefined;
  'highlight.created': { manuscript: ManuscriptRow; highlight: HighlightRow };
  'comment.created': { manuscript: ManuscriptRow; comment: CommentRow; author: EventAuthor };
  'comment.updated': { manuscript: ManuscriptRow; comment: CommentRow; author: EventAuthor };
  'comment.deleted': { manuscript: ManuscriptRow };
  'comment.ranked': { manuscript: ManuscriptRow };
  'manuscript.flagged': { manuscript: ManuscriptRow; author: UserRow };
  'comment.flagged': { manuscript: ManuscriptRow; comment: CommentRow; author: EventAuthor };
  'user.suspended': undefined;
  'user.unsuspended': undefined;
  'reply.created': { manuscript: ManuscriptRow; reply: ThreadRow; author: EventAuthor };
  'reply.updated': { manuscript: ManuscriptRow; reply: ThreadRow; author: EventAuthor };
  'reply.deleted': { manuscript: ManuscriptRow; reply: ThreadRow };
  'reply.ranked': { manuscript: ManuscriptRow; reply: ThreadRow };
  'comment.resolved': { manuscript: ManuscriptRow };
  'reaction.changed': { manuscript: ManuscriptRow; target: ThreadRow };
}

/** A comment or reply, with the writer of the comment a reply answers (who may see it). */
type ThreadRow = CommentRow & { threadAuthorId: number | null };

/** One event as a writer emits it. */
export type DomainEvent<Type extends EventType = EventType> = {
  [T in Type]: {
    type: T;
    /** Who did it (a user id); null for the system (a job, a sweep). */
    actorId: number | null;
    payload: EventPayload<T>;
    /** Where the write came from: its socket is left out of the broadcast (it has the ack). */
    originSocketId?: string;
    /**
     * The event's row (events table), set by the bus for the after-commit subscribers: one that
     * must not act twice on one event (dispatch is at least once after a crash) keys on it.
     */
    eventId?: number;
  } & (EventRows[T] extends undefined ? { rows?: undefined } : { rows: EventRows[T] });
}[Type];
