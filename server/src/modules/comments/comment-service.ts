import { and, eq, isNull, sql } from 'drizzle-orm';
import { COMMENT_MESSAGES, highlightInput, type CreateCommentBody } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { rowFromJson } from '../../db/json-rows.ts';
import { eventRowInsert } from '../../events/outbox.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import type { WriteOptions } from './events.ts';
import { insertHighlight, prepareHighlight } from './highlight-service.ts';
import type { AuthorFields, CommentRow, HighlightRow } from './presenter.ts';
import { findHighlight, voteOf } from './queries.ts';
import { findCommentInThread, type ThreadComment } from './thread-queries.ts';
import { removeUnusedHighlight, tombstoneInScope } from './removal.ts';
import { authorize, loadScope, type CommentScope } from './scope.ts';

/** What a save did: the comment saved, or a blank save that deleted or cancelled one. */
export interface SaveOutcome {
  scope: CommentScope;
  comment: CommentRow | null;
  author: AuthorFields | null;
  highlight: HighlightRow | null;
  myVote: -1 | 0 | 1;
  /** A blank save deleted the comment (id set) or cancelled a new one (id null). */
  deleted: { id: number | null; selectionId: string; highlightRemoved: boolean } | null;
}

const isBlank = (text: string) => text.trim() === '';

/**
 * A new comment on a highlight, creating the highlight when its selection_id is new (its range
 * is then required). A blank comment creates nothing: it cancels, and removes the caller's
 * highlight if nobody commented on it.
 */
export async function createComment(
  ctx: AppContext,
  scope: CommentScope,
  body: CreateCommentBody,
  options: WriteOptions = {},
): Promise<SaveOutcome> {
  authorize(scope, 'create', null);
  const viewer = scope.viewer!;
  const selectionId = body.highlight.selection_id;
  if (isBlank(body.comment)) return cancelNewComment(ctx, scope, selectionId, options);

  // A comment on a highlight already there (no range sent, the usual case) is one statement
  // with its event; a range may make a new one, prepared beforehand, then written with the
  // comment in a transaction.
  const range = highlightInput.safeParse(body.highlight);
  const existing = range.success ? await findHighlight(ctx.db, selectionId) : null;
  if (existing) assertHere(scope, existing);
  const prepared =
    !existing && range.success ? await prepareHighlight(ctx, scope, selectionId, range.data) : null;
  if (!prepared) {
    const saved = await commentOnLiveHighlight(ctx, scope, selectionId, body.comment, options);
    if (!saved.highlight && !range.success) {
      throw badRequest({ highlight: [COMMENT_MESSAGES.selectionMissing] });
    }
    if (!saved.highlight) throw notFound();
    assertHere(scope, saved.highlight);
    if (!saved.comment) throw new Error('The comment was not written');
    return {
      scope,
      comment: saved.comment,
      author: authorOf(viewer),
      highlight: saved.highlight,
      myVote: 0,
      deleted: null,
    };
  }
  const { comment, highlight } = await ctx.events.transaction(async (tx) => {
    const { highlight, created: highlightCreated } = await insertHighlight(tx, prepared);
    const [comment] = await tx
      .insert(schema.comments)
      .values({
        manuscriptId: scope.manuscript.id,
        selectionId,
        authorId: viewer.id,
        body: body.comment.trim(),
      })
      .returning();
    const manuscript = scope.manuscript;
    const origin = { actorId: viewer.id, originSocketId: options.originSocketId };
    if (highlightCreated) {
      await ctx.events.emit(tx, {
        type: 'highlight.created',
        ...origin,
        payload: { manuscriptId: manuscript.id, selectionId },
        rows: { manuscript, highlight },
      });
    }
    await ctx.events.emit(tx, {
      type: 'comment.created',
      ...origin,
      payload: { manuscriptId: manuscript.id, commentId: comment!.id, selectionId },
      rows: { manuscript, comment: comment!, author: authorOf(viewer) },
    });
    return { comment: comment!, highlight };
  });
  return { scope, comment, author: authorOf(viewer), highlight, myVote: 0, deleted: null };
}

/**
 * A comment on a highlight already there (the usual case: every comment after a passage's
 * first), its event's row with it, in one statement: no transaction's round trips, which on the
 * embedded database are most of a comment's cost. The highlight is read and locked by the same
 * statement (a cancel removing it at that moment goes first or waits), and the comment is
 * written only if it is live and on the scope's manuscript; the highlight comes back either way
 * for the caller to tell "no such selection" from "not here".
 */
async function commentOnLiveHighlight(
  ctx: AppContext,
  scope: CommentScope,
  selectionId: string,
  text: string,
  options: WriteOptions,
): Promise<{ highlight: HighlightRow | null; comment: CommentRow | null }> {
  const { comments, highlights } = schema;
  const manuscript = scope.manuscript;
  const viewer = scope.viewer!;
  const column = (name: { name: string }) => sql.identifier(name.name);
  const saved: { highlight: HighlightRow | null; comment: CommentRow | null } = {
    highlight: null,
    comment: null,
  };
  await ctx.events.emitWritten('comment.created', async () => {
    const result = await ctx.db.execute(sql`
      WITH live AS (
        SELECT * FROM ${highlights} WHERE ${highlights.id} = ${selectionId} FOR SHARE
      ), written AS (
        INSERT INTO ${comments} (${column(comments.manuscriptId)}, ${column(comments.selectionId)},
          ${column(comments.authorId)}, ${column(comments.body)})
        SELECT ${manuscript.id}::integer, ${selectionId}, ${viewer.id}::integer, ${text.trim()}
        FROM live WHERE live.manuscript_id = ${manuscript.id} AND live.deleted_at IS NULL
        RETURNING *
      ), event AS (
        ${eventRowInsert(
          'comment.created',
          viewer.id,
          sql`jsonb_build_object('manuscriptId', written.manuscript_id, 'commentId', written.id,
            'selectionId', written.selection_id)`,
          sql`written`,
        )}
      )
      SELECT (SELECT to_jsonb(live) FROM live) AS highlight,
        (SELECT to_jsonb(written) FROM written) AS comment,
        (SELECT id FROM event) AS event_id`);
    const [row] = (
      result as unknown as {
        rows: Array<{
          highlight: Record<string, unknown> | null;
          comment: Record<string, unknown> | null;
          event_id: number | string | null;
        }>;
      }
    ).rows;
    saved.highlight = row?.highlight ? rowFromJson(highlights, row.highlight) : null;
    saved.comment = row?.comment ? rowFromJson(comments, row.comment) : null;
    if (!saved.comment || row?.event_id == null) return null;
    return {
      type: 'comment.created',
      actorId: viewer.id,
      originSocketId: options.originSocketId,
      payload: { manuscriptId: manuscript.id, commentId: saved.comment.id, selectionId },
      rows: { manuscript, comment: saved.comment, author: authorOf(viewer) },
      // bigserial: a string from node-postgres, a number from PGlite.
      eventId: Number(row.event_id),
    };
  });
  return saved;
}

/** 404 unless the highlight is live and on the scope's manuscript (as if it did not exist). */
function assertHere(scope: CommentScope, highlight: HighlightRow): void {
  if (highlight.manuscriptId !== scope.manuscript.id || highlight.deletedAt !== null) {
    throw notFound();
  }
}

/** New text for one's own comment; blank text deletes it (SPEC: an empty comment goes). */
export async function updateComment(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  text: string,
  options: WriteOptions = {},
): Promise<SaveOutcome> {
  const { scope, comment } = await loadComment(ctx, viewer, commentId, options);
  // A reply is edited through the reply calls (its broadcast is new_reply, not new_comment).
  if (comment.parentId !== null) throw notFound();
  authorize(scope, 'update', comment);
  if (isBlank(text)) {
    const deleted = await removeComment(ctx, scope, comment, options);
    return { scope, comment: null, author: null, highlight: null, myVote: 0, deleted };
  }
  const author = authorOf(scope.viewer!);
  const updated = await ctx.events.transaction(async (tx) => {
    const [updated] = await tx
      .update(schema.comments)
      .set({ body: text.trim(), updatedAt: sql`now()`, changedAt: sql`now()` })
      .where(and(eq(schema.comments.id, comment.id), isNull(schema.comments.deletedAt)))
      .returning();
    if (!updated) throw notFound();
    await ctx.events.emit(tx, {
      type: 'comment.updated',
      actorId: author.id,
      originSocketId: options.originSocketId,
      payload: {
        manuscriptId: scope.manuscript.id,
        commentId: updated.id,
        selectionId: updated.selectionId,
      },
      rows: { manuscript: scope.manuscript, comment: updated, author },
    });
    return updated;
  });
  return {
    scope,
    comment: updated,
    author,
    highlight: await findHighlight(ctx.db, updated.selectionId),
    myVote: await voteOf(ctx.db, scope.viewer!.id, updated.id),
    deleted: null,
  };
}

/** Deletes a comment: its writer, or the manuscript's owner. */
export async function deleteComment(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  options: WriteOptions = {},
): Promise<{ id: number; selectionId: string; highlightRemoved: boolean }> {
  const { scope, comment } = await loadComment(ctx, viewer, commentId, options);
  if (comment.parentId !== null) throw notFound();
  authorize(scope, 'delete', comment);
  const deleted = await removeComment(ctx, scope, comment, options);
  return {
    id: comment.id,
    selectionId: deleted.selectionId,
    highlightRemoved: deleted.highlightRemoved,
  };
}

/** A comment and its scope for this viewer; 404 when it is gone or not where the caller says. */
export async function loadComment(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  options: WriteOptions,
): Promise<{ scope: CommentScope; comment: ThreadComment }> {
  const comment = await findCommentInThread(ctx.db, commentId);
  if (!comment || comment.deletedAt !== null) throw notFound();
  if (options.manuscriptId !== undefined && options.manuscriptId !== comment.manuscriptId) {
    throw notFound();
  }
  const scope = await loadScope(ctx, viewer, comment.manuscriptId);
  return { scope, comment };
}

/** Soft-deletes a comment (removal.ts); 404 when it went meanwhile. */
async function removeComment(
  ctx: AppContext,
  scope: CommentScope,
  comment: ThreadComment,
  options: WriteOptions,
): Promise<{ id: number; selectionId: string; highlightRemoved: boolean }> {
  const { highlightRemoved } = await tombstoneInScope(ctx, scope, comment, options);
  return { id: comment.id, selectionId: comment.selectionId, highlightRemoved };
}

/** The cancel of a new comment (a blank save without id): drops the caller's unused highlight. */
async function cancelNewComment(
  ctx: AppContext,
  scope: CommentScope,
  selectionId: string,
  options: WriteOptions,
): Promise<SaveOutcome> {
  const highlight = await findHighlight(ctx.db, selectionId);
  let highlightRemoved = false;
  if (highlight && highlight.manuscriptId === scope.manuscript.id && highlight.deletedAt === null) {
    highlightRemoved = await ctx.events.transaction(async (tx) => {
      const removed = await removeUnusedHighlight(tx, selectionId, scope.viewer!.id);
      if (removed) {
        await ctx.events.emit(tx, {
          type: 'comment.deleted',
          actorId: scope.viewer!.id,
          originSocketId: options.originSocketId,
          payload: {
            manuscriptId: scope.manuscript.id,
            commentId: null,
            selectionId,
            highlightRemoved: true,
          },
          rows: { manuscript: scope.manuscript },
        });
      }
      return removed;
    });
  }
  return {
    scope,
    comment: null,
    author: null,
    highlight: null,
    myVote: 0,
    deleted: { id: null, selectionId, highlightRemoved },
  };
}

export function authorOf(user: UserRow): AuthorFields {
  return {
    id: user.id,
    displayName: user.displayName,
    handle: user.handle,
    pictureMediaId: user.pictureMediaId,
  };
}
