// Threads on margin comments (issue 16): replies one level deep, resolving, reactions, and the
// export of all feedback. Every reply that leaves the server has passed the server's presenter:
// with private comments on, a reply to a comment reaches only that comment's writer, the
// replier and the manuscript's owner.
import { z } from 'zod';
import { REACTION_NAMES, type ReactionName } from '../constants.ts';
import { THREAD_MESSAGES } from '../messages.ts';
import { SURVEY_TYPES } from './access-surveys.ts';
import { comment, commentText, voteValue } from './comments.ts';
import { commentAuthor } from './comments.ts';
import { databaseId } from './fields.ts';

const isoTime = z.string();

/** One of the fixed reactions (constants.ts REACTIONS), by its URL-safe name. */
export const reactionName = z.enum(REACTION_NAMES as [ReactionName, ...ReactionName[]], {
  error: THREAD_MESSAGES.unknownReaction,
});

/** Who reacted, as the hover shows them (never an e-mail address). */
export const reactionUser = z.object({ id: z.number(), display_name: z.string() });

/** One reaction on one comment or reply: how many, and who. */
export const reactionSummary = z.object({
  name: reactionName,
  count: z.number(),
  /** Everyone who reacted this way, oldest first (the client marks its own from these ids). */
  users: z.array(reactionUser),
});
export type ReactionSummary = z.infer<typeof reactionSummary>;

/** The reactions of one comment or reply (replies share the comments' ids). */
export const reactionSet = z.object({
  comment_id: z.number(),
  reactions: z.array(reactionSummary),
});
export type ReactionSet = z.infer<typeof reactionSet>;

/** A reply to a margin comment, as this viewer may see it. */
export const reply = z.object({
  id: z.number(),
  /** The comment it answers (the thread). */
  comment_id: z.number(),
  manuscript_id: z.number(),
  author_id: z.number(),
  author: commentAuthor,
  comment: z.string(),
  created: isoTime,
  updated: isoTime,
  /** Sum of the votes (POST /comments/:id/rank/:dir works on replies too). */
  rank: z.number(),
  /** This viewer's vote; absent in broadcasts. */
  my_vote: voteValue.optional(),
  /** Flagged by moderators: hide the text behind a reveal click. */
  moderation_flag: z.boolean(),
  moderation_reason: z.string().nullable(),
});
export type Reply = z.infer<typeof reply>;

/** GET /comments/manuscript/:manuscript_id/threads: every reply and reaction this viewer may see. */
export const threadsResponse = z.object({
  /** Oldest first within each comment. */
  replies: z.array(reply),
  /** Only comments and replies with at least one reaction. */
  reactions: z.array(reactionSet),
});
export type ThreadsResponse = z.infer<typeof threadsResponse>;

/** POST /comments/:comment_id/replies and PUT /comments/replies/:reply_id. */
export const replyBody = z.object({
  comment: commentText.refine((text) => text.trim() !== '', THREAD_MESSAGES.writeReply),
});
export const replyIdParams = z.object({ reply_id: databaseId });
export const replyResponse = z.object({ reply });
export const replyDeleteResponse = z.object({
  ok: z.literal(true),
  id: z.number(),
  comment_id: z.number(),
});

/** POST (resolve) and DELETE (reopen) /comments/:comment_id/resolve. */
export const resolveResponse = z.object({ comment });

/** PUT (add) and DELETE (remove) /comments/:comment_id/reactions/:reaction: both idempotent. */
export const reactionParams = z.object({ comment_id: databaseId, reaction: reactionName });

// Socket.IO (same rooms as the comments).

/** save_reply (client → server): no id replies to comment_id; an id edits that reply. */
export const saveReplyPayload = z.object({
  room: z.string(),
  reply: z.object({
    id: databaseId.optional(),
    /** Required for a new reply. */
    comment_id: databaseId.optional(),
    comment: replyBody.shape.comment,
  }),
});
/** delete_reply (client → server). */
export const deleteReplyPayload = z.object({
  room: z.string(),
  reply: z.object({ id: databaseId }),
});
/** react (client → server): on adds the reaction, off removes it (both idempotent). */
export const reactPayload = z.object({
  room: z.string(),
  comment_id: databaseId,
  reaction: reactionName,
  on: z.boolean(),
});

const ackError = z.object({
  ok: z.literal(false),
  error: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export const saveReplyAck = z.union([reply.extend({ ok: z.literal(true) }), ackError]);
export const deleteReplyAck = z.union([replyDeleteResponse, ackError]);
export const reactAck = z.union([reactionSet.extend({ ok: z.literal(true) }), ackError]);

/** new_reply (server → client): a reply created or edited; upsert by id. */
export const newReplyEvent = z.object({ room: z.string(), reply });
/** delete_reply (server → client). */
export const deleteReplyEvent = z.object({
  room: z.string(),
  reply: z.object({ id: z.number(), comment_id: z.number(), manuscript_id: z.number() }),
});
/** reply_ranked (server → client). */
export const replyRankedEvent = z.object({
  room: z.string(),
  dir: z.enum(['up', 'down']),
  reply_id: z.number(),
  comment_id: z.number(),
  rank: z.number(),
});
/** comment_resolved (server → client): resolved_at null means reopened. */
export const commentResolvedEvent = z.object({
  room: z.string(),
  comment_id: z.number(),
  resolved_at: isoTime.nullable(),
});
/** reactions_changed (server → client): the whole reaction set of one comment or reply. */
export const reactionsChangedEvent = reactionSet.extend({ room: z.string() });

export type NewReplyEvent = z.infer<typeof newReplyEvent>;
export type DeleteReplyEvent = z.infer<typeof deleteReplyEvent>;
export type ReplyRankedEvent = z.infer<typeof replyRankedEvent>;
export type CommentResolvedEvent = z.infer<typeof commentResolvedEvent>;
export type ReactionsChangedEvent = z.infer<typeof reactionsChangedEvent>;

/** The thread events the server emits (merged into ServerToClientEvents). */
export interface ThreadServerEvents {
  new_reply: (event: NewReplyEvent) => void;
  delete_reply: (event: DeleteReplyEvent) => void;
  reply_ranked: (event: ReplyRankedEvent) => void;
  comment_resolved: (event: CommentResolvedEvent) => void;
  reactions_changed: (event: ReactionsChangedEvent) => void;
}
type Ack<T extends z.ZodType> = (answer: z.infer<T>) => void;
/** The thread events the client emits (merged into ClientToServerEvents). */
export interface ThreadClientEvents {
  save_reply: (payload: z.input<typeof saveReplyPayload>, ack: Ack<typeof saveReplyAck>) => void;
  delete_reply: (
    payload: z.input<typeof deleteReplyPayload>,
    ack: Ack<typeof deleteReplyAck>,
  ) => void;
  react: (payload: z.input<typeof reactPayload>, ack: Ack<typeof reactAck>) => void;
}

// Export of all feedback (owner only).

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** A DOCX export job as the author's page polls it. */
export const feedbackExport = z.object({
  id: z.string(),
  manuscript_id: z.number(),
  format: z.literal('docx'),
  status: z.enum(EXPORT_STATUSES),
  /** 0…1. */
  progress: z.number(),
  /** Set once done: GET …/export/:export_id/download. */
  file_name: z.string().nullable(),
  error: z.string().nullable(),
  created: isoTime,
});
export type FeedbackExport = z.infer<typeof feedbackExport>;
export const feedbackExportResponse = z.object({ export: feedbackExport });
export const exportIdParams = z.object({
  manuscript_id: databaseId,
  export_id: z.string().uuid(),
});
/** GET /manuscript/:manuscript_id/export/feedback/:type: one row per comment and reply. */
export const feedbackFileParams = z.object({
  manuscript_id: databaseId,
  type: z.enum(['csv', 'json'], { error: 'Choose csv or json.' }),
});
/** GET /manuscript/:manuscript_id/export/survey/:survey_type: one row per answer. */
export const surveyExportParams = z.object({
  manuscript_id: databaseId,
  survey_type: z.enum(SURVEY_TYPES, { error: 'Not a survey type.' }),
});

/** One comment or reply in the CSV and JSON exports. */
export const feedbackRow = z.object({
  kind: z.enum(['comment', 'reply']),
  id: z.number(),
  /** For a reply: the comment it answers; for a comment: its own id. */
  thread_id: z.number(),
  chapter: z.string(),
  quote: z.string(),
  text: z.string(),
  /** Display name only: never an e-mail address. */
  author: z.string(),
  date: isoTime,
  votes: z.number(),
  /** e.g. "👍 2; ❤️ 1". */
  reactions: z.string(),
  resolved: z.boolean(),
  /** The passage is no longer in the current draft. */
  orphaned: z.boolean(),
  /** Hidden by the moderators (kept, marked). */
  moderation_hidden: z.boolean(),
  moderation_reason: z.string().nullable(),
});
export type FeedbackRow = z.infer<typeof feedbackRow>;
export const FEEDBACK_COLUMNS = Object.keys(feedbackRow.shape) as (keyof FeedbackRow)[];
