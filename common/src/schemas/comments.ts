// Highlights and margin comments: their shapes, limits and messages, and the HTTP calls on them.
import { z } from 'zod';
import { HIGHLIGHT_COLOURS } from '../constants.ts';
import { databaseId, storedOffset } from './fields.ts';
import { feedQuery, feedResponse } from './list.ts';

// Highlights, margin comments, votes and reports (SPEC §3, §4, §6, §7), over HTTP and the
// socket. Every comment that leaves the server has passed the server's presenter: with
// private_comments on, only the comment's writer and the manuscript's owner get its text.

const isoTime = z.string();

/** Longest comment, and longest highlighted passage, in characters. */
export const COMMENT_MAX_LENGTH = 10_000;
export const HIGHLIGHT_MAX_LENGTH = 20_000;
/** Characters of context kept before and after a highlight's quote (robust anchors). */
export const QUOTE_CONTEXT_LENGTH = 32;
/** Longest report description. */
export const REPORT_DESCRIPTION_MAX_LENGTH = 2_000;

/** The comment module's own messages (SPEC is silent on these). */
export const COMMENT_MESSAGES = {
  writeComment: 'Write a comment first.',
  commentTooLong: `Use at most ${COMMENT_MAX_LENGTH} characters.`,
  selectionOutside: 'The selection must lie inside the manuscript text.',
  selectionTaken: 'That selection id is already in use.',
  selectionMissing: 'Highlight the passage first.',
  noReport: 'Choose a reason.',
  describeReason: 'Tell us a little more about this report.',
  reportOwn: "You can't report your own comment.",
  reportOwnManuscript: "You can't report your own manuscript.",
  reportMissing: 'That comment or manuscript no longer exists.',
  ownVote: "You can't vote on your own comment.",
  matureGate: 'Confirm that you are 18 or over to read this manuscript.',
  questionnaireGate: 'Answer the questionnaire and wait for approval to read this manuscript.',
  accessRevoked: 'You no longer have access to this manuscript.',
  badRoom: 'Unknown room.',
  joinFirst: 'Join the room first.',
} as const;

/**
 * A highlight's id (the SPEC's selection_id), chosen by the client (e.g. crypto.randomUUID())
 * so that the `highlight` event and the comment that follows can name it before any answer.
 */
export const selectionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{6,64}$/, 'Use 6–64 letters, digits, "-" or "_".');

const childPath = z.array(z.number().int().min(0).max(1_000_000)).max(64);

/**
 * A new highlight as the client describes its selection. The SPEC range (paths + offsets +
 * selectedText) is required; the text position (start/end: offsets in the reader box's
 * textContent, i.e. the manuscript HTML as served) is what the server anchors by when given.
 * The server checks the selection against its copy of the text, and computes the quote,
 * prefix, suffix, block id and canonical paths itself.
 */
const highlightFields = {
  /** Child-index path from the reader box to the start text node. */
  startPath: childPath,
  /** Child-index path from the reader box to the end text node. */
  endPath: childPath,
  /** Offset in the start text node. */
  startOffset: storedOffset,
  /** Offset in the end text node. */
  endOffset: storedOffset,
  /** The selected text as the browser gave it. */
  selectedText: z
    .string()
    .min(1, COMMENT_MESSAGES.selectionMissing)
    .max(HIGHLIGHT_MAX_LENGTH, `Select at most ${HIGHLIGHT_MAX_LENGTH} characters.`),
  /** Start offset in the document text (reader box textContent); preferred over the paths. */
  start: storedOffset.optional(),
  /** End offset (exclusive) in the document text. */
  end: storedOffset.optional(),
  /** The id of the block the selection starts in (a hint; the server recomputes it). */
  block_id: z.string().max(100).nullable().optional(),
  /** Index into HIGHLIGHT_COLOURS; the server picks the next in the cycle when left out. */
  colour: z
    .number()
    .int()
    .min(0)
    .max(HIGHLIGHT_COLOURS.length - 1)
    .optional(),
};

const nonEmptyRange = (value: { start?: number | undefined; end?: number | undefined }) =>
  value.start === undefined || value.end === undefined || value.end > value.start;

export const highlightInput = z
  .object(highlightFields)
  .refine(nonEmptyRange, { message: 'The selection is empty.', path: ['end'] });
export type HighlightInput = z.infer<typeof highlightInput>;

/** A highlight as clients see it. */
export const highlight = z.object({
  selection_id: z.string(),
  manuscript_id: z.number(),
  /** Who highlighted it. */
  user_id: z.number(),
  /** The draft the anchor below refers to (null when that draft is gone). */
  version_id: z.number().nullable(),
  /**
   * Child-index paths and offsets in the pristine manuscript HTML of that draft. Where the
   * quote is withheld (private comments) so is its place, which would give the quote back
   * from the text: [] and null.
   */
  startPath: z.array(z.number()),
  endPath: z.array(z.number()),
  startOffset: z.number().nullable(),
  endOffset: z.number().nullable(),
  /** The text as it was selected; "" when withheld (private comments). */
  selectedText: z.string(),
  /** The block the highlight starts in; null when unknown or withheld (private comments). */
  block_id: z.string().nullable(),
  /** Offsets in the document text (reader box textContent) of that draft; null when withheld. */
  start: z.number().nullable(),
  end: z.number().nullable(),
  /** The quote in the current draft with 32 characters either side; "" when withheld. */
  quote: z.object({ exact: z.string(), prefix: z.string(), suffix: z.string() }),
  /** Index into HIGHLIGHT_COLOURS. */
  colour: z.number(),
  /** Could not be placed in the current draft: list it with its quote, do not draw it. */
  orphaned: z.boolean(),
  /** True when the quote and its place are withheld from this viewer (private comments). */
  private: z.boolean(),
  created: isoTime,
  updated: isoTime,
});
export type Highlight = z.infer<typeof highlight>;

/** The part of a user shown beside a comment and in the strip of connected users. */
export const commentAuthor = z.object({
  id: z.number(),
  display_name: z.string(),
  handle: z.string().nullable(),
  picture: z.string().nullable(),
});
export type CommentAuthor = z.infer<typeof commentAuthor>;

/** A vote: 1 up, -1 down, 0 none. */
export const voteValue = z.union([z.literal(-1), z.literal(0), z.literal(1)]);

/** A comment (SPEC §3) as this viewer may see it. */
export const comment = z.object({
  id: z.number(),
  manuscript_id: z.number(),
  author_id: z.number(),
  author: commentAuthor,
  /** The text, or MESSAGES.privateComments when withheld from this viewer. */
  comment: z.string(),
  /** True when the text is withheld (private comments): show the notice, no reveal. */
  private: z.boolean(),
  selection_id: z.string(),
  created: isoTime,
  /** Last edit of the text (equals created until edited). */
  updated: isoTime,
  /** Sum of the votes (up +1, down -1). */
  rank: z.number(),
  /** This viewer's vote; absent in broadcasts (keep the one you know). */
  my_vote: voteValue.optional(),
  /** Flagged by moderators: hide the text behind a reveal click. */
  moderation_flag: z.boolean(),
  /** The moderators' reason, or null ("No reason given"). */
  moderation_reason: z.string().nullable(),
  /** When the author resolved this comment's thread (null or absent: open). Issue 16. */
  resolved_at: isoTime.nullable().optional(),
});
export type Comment = z.infer<typeof comment>;

export const commentIdParams = z.object({ comment_id: databaseId });
export const selectionIdParams = z.object({ selection_id: selectionId });
export const rankParams = z.object({ comment_id: databaseId, dir: z.enum(['up', 'down']) });
export type RankDirection = z.infer<typeof rankParams>['dir'];

/** GET /comments/manuscript/:manuscript_id?since=ISO */
export const commentListQuery = feedQuery;

/**
 * The comments and highlights of a manuscript, in document order then rank: a feed of the list
 * contract (schemas/list.ts, its cursor form), as the reader keeps its margins in step.
 */
export const commentListResponse = feedResponse({
  comments: { item: comment.omit({ author: true }), id: z.number() },
  highlights: { item: highlight, id: z.string() },
}).extend({
  /**
   * The writers of the listed comments, once each (by user id, as a string key): a busy
   * manuscript has thousands of comments by a few dozen people. A comment's `author` is
   * `authors[author_id]`; the list leaves it out of each comment.
   */
  authors: z.record(z.string(), commentAuthor),
});
export type CommentListResponse = z.infer<typeof commentListResponse>;
/** A comment as the list sends it: without its author (see `authors`). */
export type ListedComment = CommentListResponse['comments'][number];

/** GET /comments/selection/:selection_id */
export const selectionCommentsResponse = z.object({
  highlight,
  comments: z.array(comment),
});

/** The text of a comment; blank means "delete" on save (SPEC: cancelling an empty comment). */
export const commentText = z.string().max(COMMENT_MAX_LENGTH, COMMENT_MESSAGES.commentTooLong);

/**
 * POST /comments/manuscript/:manuscript_id: a comment on a highlight, creating the highlight
 * when its selection_id is new (then its range is required). A blank comment creates nothing
 * and cancels: the caller's highlight is removed if it has no comments.
 */
export const createCommentBody = z.object({
  /** selection_id always; the range only when the highlight is new. */
  highlight: z
    .object({ selection_id: selectionId, ...highlightFields })
    .partial({
      startPath: true,
      endPath: true,
      startOffset: true,
      endOffset: true,
      selectedText: true,
    })
    .refine(nonEmptyRange, { message: 'The selection is empty.', path: ['end'] }),
  comment: commentText,
});
export type CreateCommentBody = z.infer<typeof createCommentBody>;

/** PUT /comments/:comment_id: new text; blank deletes the comment. */
export const updateCommentBody = z.object({ comment: commentText });

/** The answer of a comment save (create or update). */
export const commentSaveResponse = z.object({
  /** The saved comment, or null when a blank save deleted or cancelled it. */
  comment: comment.nullable(),
  /** The highlight the comment is on (null after a cancel). */
  highlight: highlight.nullable(),
  /** True when a blank save deleted the comment (or cancelled a new one). */
  deleted: z.boolean(),
  /** True when the highlight went too (it had no other comments). */
  highlight_removed: z.boolean(),
});
export type CommentSaveResponse = z.infer<typeof commentSaveResponse>;

/** DELETE /comments/:comment_id */
export const commentDeleteResponse = z.object({
  ok: z.literal(true),
  id: z.number(),
  selection_id: z.string(),
  highlight_removed: z.boolean(),
});

/** POST /comments/:comment_id/rank/:dir */
export const commentRankResponse = z.object({ comment });
