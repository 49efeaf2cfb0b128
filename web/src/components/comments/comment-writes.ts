import {
  COMMENT_MESSAGES,
  type Comment,
  type Highlight,
  type HighlightInput,
  type RankDirection,
} from '@margins/common';
import { ApiError } from '../../api/client.ts';
import {
  createCommentHttp,
  deleteCommentHttp,
  rankCommentHttp,
  removeComment,
  removeHighlight,
  updateCommentHttp,
  upsertComment,
  upsertHighlight,
  type CommentsData,
} from '../../api/comments.ts';
import type { ManuscriptRoom } from '../../realtime/manuscript-room.ts';
import type { SelectionAnchor } from './anchoring.ts';

// Every comment write: over the socket with its ack while connected, over HTTP otherwise;
// the answer is merged into the cache at once (the broadcast that may follow merges by id).

export interface WriteContext {
  manuscriptId: number;
  /** The live room, or null (no socket: HTTP only). */
  room: ManuscriptRoom | null;
  /** Applies a change to the cached comments. */
  update: (change: (data: CommentsData) => CommentsData) => void;
}

/** A refused ack as the same error an HTTP answer would throw. */
function refused(ack: { error: string; errors?: Record<string, string[]> | undefined }): ApiError {
  return new ApiError(400, ack.error, ack.errors ?? {});
}

/**
 * The contract's highlight input of a selection (the server recomputes the quote, context and
 * paths from the text position itself); `colour` is its place in the colour cycle.
 */
function highlightInputOf(anchor: SelectionAnchor, colour?: number): HighlightInput {
  return {
    ...(colour === undefined ? {} : { colour }),
    startPath: anchor.startPath,
    endPath: anchor.endPath,
    startOffset: anchor.startOffset,
    endOffset: anchor.endOffset,
    selectedText: anchor.selectedText,
    start: anchor.start,
    end: anchor.end,
    block_id: anchor.block_id,
  };
}

const live = (context: WriteContext) =>
  context.room && context.room.connected ? context.room : null;

/**
 * The `highlight` event: stores a new highlight so that the room sees it at once. Null when
 * the socket is down: the highlight is then created with its first comment over HTTP.
 */
export async function createHighlight(
  context: WriteContext,
  selectionId: string,
  anchor: SelectionAnchor,
  colour?: number,
): Promise<Highlight | null> {
  const room = live(context);
  if (!room) return null;
  const ack = await room.send('highlight', {
    room: room.room,
    selection_id: selectionId,
    manuscript_id: context.manuscriptId,
    highlight: highlightInputOf(anchor, colour),
  });
  if (ack === null) return null;
  if (!ack.ok) throw refused(ack);
  const { ok: _ok, ...highlight } = ack;
  context.update((data) => upsertHighlight(data, highlight));
  return highlight;
}

/** The first comment on a new highlight (or a reply on any): its text saved. */
export async function saveNewComment(
  context: WriteContext,
  selectionId: string,
  text: string,
  /** The range, when the highlight is not stored yet (it is created with the comment). */
  unsavedAnchor: SelectionAnchor | null,
  colour?: number,
): Promise<Comment> {
  const room = live(context);
  if (room && !unsavedAnchor) {
    const ack = await room.send('save_comment', {
      room: room.room,
      comment: { selection_id: selectionId, comment: text },
    });
    if (ack !== null) {
      if (!ack.ok) throw refused(ack);
      if (ack.deleted) throw new ApiError(400, COMMENT_MESSAGES.writeComment);
      const { ok: _ok, deleted: _deleted, ...comment } = ack;
      context.update((data) => upsertComment(data, comment));
      return comment;
    }
  }
  const answer = await createCommentHttp(context.manuscriptId, {
    highlight: unsavedAnchor
      ? { selection_id: selectionId, ...highlightInputOf(unsavedAnchor, colour) }
      : { selection_id: selectionId },
    comment: text,
  });
  if (!answer.comment) throw new ApiError(400, COMMENT_MESSAGES.writeComment);
  const saved = answer.comment;
  context.update((data) => {
    const withHighlight = answer.highlight ? upsertHighlight(data, answer.highlight) : data;
    return upsertComment(withHighlight, saved);
  });
  return saved;
}

/**
 * Cancels a new, empty comment: the server drops the caller's highlight when nobody commented
 * on it (SPEC §4: cancelling a new empty comment deletes it). `stored` false: nothing to tell.
 */
export async function cancelNewComment(
  context: WriteContext,
  selectionId: string,
  stored: boolean,
): Promise<void> {
  if (!stored) return;
  let removed = false;
  const room = live(context);
  const ack = room
    ? await room.send('save_comment', {
        room: room.room,
        comment: { selection_id: selectionId, comment: '' },
      })
    : null;
  if (ack) {
    if (!ack.ok) throw refused(ack);
    removed = ack.deleted && ack.highlight_removed;
  } else {
    const answer = await createCommentHttp(context.manuscriptId, {
      highlight: { selection_id: selectionId },
      comment: '',
    });
    removed = answer.highlight_removed;
  }
  if (removed) context.update((data) => removeHighlight(data, selectionId));
}

/** New text for one's own comment. */
export async function updateComment(
  context: WriteContext,
  id: number,
  text: string,
): Promise<Comment | null> {
  const room = live(context);
  const ack = room
    ? await room.send('save_comment', { room: room.room, comment: { id, comment: text } })
    : null;
  if (ack) {
    if (!ack.ok) throw refused(ack);
    if (ack.deleted) {
      context.update((data) =>
        removeComment(data, {
          id,
          selection_id: ack.selection_id,
          highlight_removed: ack.highlight_removed,
        }),
      );
      return null;
    }
    const { ok: _ok, deleted: _deleted, ...comment } = ack;
    context.update((data) => upsertComment(data, comment));
    return comment;
  }
  const answer = await updateCommentHttp(id, text);
  const saved = answer.comment;
  if (!saved) {
    context.update((data) => {
      const selectionId = data.comments.find((comment) => comment.id === id)?.selection_id ?? '';
      return removeComment(data, {
        id,
        selection_id: selectionId,
        highlight_removed: answer.highlight_removed,
      });
    });
    return null;
  }
  context.update((data) => upsertComment(data, saved));
  return saved;
}

/** Deletes a comment (one's own, or any on one's manuscript). */
export async function deleteComment(context: WriteContext, id: number): Promise<void> {
  const room = live(context);
  const ack = room ? await room.send('delete_comment', { room: room.room, comment: { id } }) : null;
  const answer = ack ?? (await deleteCommentHttp(id));
  if (!answer.ok) throw refused(answer);
  context.update((data) =>
    removeComment(data, {
      id,
      selection_id: answer.selection_id,
      highlight_removed: answer.highlight_removed,
    }),
  );
}

/** Votes a comment up or down (one vote per user; voting again the other way changes it). */
export async function rankComment(
  context: WriteContext,
  id: number,
  dir: RankDirection,
): Promise<Comment> {
  const room = live(context);
  const ack = room
    ? await room.send('rank_comment', { room: room.room, dir, comment_id: id })
    : null;
  let ranked: Comment;
  if (ack) {
    if (!ack.ok) throw refused(ack);
    const { ok: _ok, ...comment } = ack;
    ranked = comment;
  } else {
    ranked = await rankCommentHttp(id, dir);
  }
  context.update((data) => upsertComment(data, ranked));
  return ranked;
}
