import { and, eq, isNull, sql } from 'drizzle-orm';
import { MESSAGES, THREAD_MESSAGES } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { forbidden, notFound, unauthorized } from '../../lib/http-errors.ts';
import { authorOf, loadComment } from './comment-service.ts';
import type { WriteOptions } from './events.ts';
import type { AuthorFields } from './presenter.ts';
import { tombstoneInScope } from './removal.ts';
import type { CommentScope } from './scope.ts';
import { canThread, type ThreadAction } from './thread-policy.ts';
import { findCommentInThread, type ThreadComment } from './thread-queries.ts';

/** What a reply write did, for the caller to present. */
export interface ReplyOutcome {
  scope: CommentScope;
  reply: ThreadComment;
  author: AuthorFields;
  myVote: -1 | 0 | 1;
}

/** Throws unless the thread policy allows it: 401 logged out, 404 gone, else 403 with why. */
export function authorizeThread(
  scope: CommentScope,
  action: ThreadAction,
  comment: ThreadComment,
): void {
  if (canThread(scope.viewer, action, comment, scope.manuscript, scope.access)) return;
  if (!scope.viewer) throw unauthorized();
  if (comment.deletedAt !== null) throw notFound();
  if (action === 'resolve') throw forbidden(THREAD_MESSAGES.resolveOwnerOnly);
  if (action === 'reply' && comment.parentId !== null) {
    throw forbidden(THREAD_MESSAGES.replyToReply);
  }
  throw forbidden(MESSAGES.forbidden);
}

/** A reply to a comment by anyone who may see that comment's text (one level deep). */
export async function createReply(
  ctx: AppContext,
  viewer: UserRow | null,
  commentId: number,
  text: string,
  options: WriteOptions = {},
): Promise<ReplyOutcome> {
  const { scope, comment } = await loadComment(ctx, viewer, commentId, options);
  authorizeThread(scope, 'reply', comment);
  const author = authorOf(scope.viewer!);
  const reply = await ctx.events.transaction(async (tx) => {
    // The comment must still be there when the reply lands (a delete at the same moment waits).
    const [parent] = await tx
      .select({ deletedAt: schema.comments.deletedAt })
      .from(schema.comments)
      .where(eq(schema.comments.id, comment.id))
      .for('share');
    if (!parent || parent.deletedAt !== null) throw notFound();
    const [row] = await tx
      .insert(schema.comments)
      .values({
        manuscriptId: comment.manuscriptId,
        selectionId: comment.selectionId,
        authorId: author.id,
        parentId: comment.id,
        body: text.trim(),
      })
      .returning();
    const reply: ThreadComment = { ...row!, threadAuthorId: comment.authorId };
    await ctx.events.emit(tx, {
      type: 'reply.created',
      actorId: author.id,
      originSocketId: options.originSocketId,
      payload: { manuscriptId: scope.manuscript.id, replyId: reply.id, commentId: comment.id },
      rows: { manuscript: scope.manuscript, reply, author },
    });
    return reply;
  });
  return { scope, reply, author, myVote: 0 };
}

/** New text for one's own reply. */
export async function updateReply(
  ctx: AppContext,
  viewer: UserRow | null,
  replyId: number,
  text: string,
  options: WriteOptions = {},
): Promise<ReplyOutcome> {
  const { scope, reply } = await loadReply(ctx, viewer, replyId, options);
  authorizeThread(scope, 'update_reply', reply);
  const author = authorOf(scope.viewer!);
  const updated = await ctx.events.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.comments)
      .set({ body: text.trim(), updatedAt: sql`now()`, changedAt: sql`now()` })
      .where(and(eq(schema.comments.id, reply.id), isNull(schema.comments.deletedAt)))
      .returning();
    if (!row) throw notFound();
    const updated: ThreadComment = { ...row, threadAuthorId: reply.threadAuthorId };
    await ctx.events.emit(tx, {
      type: 'reply.updated',
      actorId: author.id,
      originSocketId: options.originSocketId,
      payload: { manuscriptId: scope.manuscript.id, replyId: row.id, commentId: row.parentId! },
      rows: { manuscript: scope.manuscript, reply: updated, author },
    });
    return updated;
  });
  const [vote] = await ctx.db
    .select({ value: schema.commentVotes.value })
    .from(schema.commentVotes)
    .where(
      and(eq(schema.commentVotes.commentId, updated.id), eq(schema.commentVotes.userId, author.id)),
    );
  return { scope, reply: updated, author, myVote: vote ? (vote.value === 1 ? 1 : -1) : 0 };
}

/** Deletes a reply: its writer, or the manuscript's owner. */
export async function deleteReply(
  ctx: AppContext,
  viewer: UserRow | null,
  replyId: number,
  options: WriteOptions = {},
): Promise<{ id: number; commentId: number }> {
  const { scope, reply } = await loadReply(ctx, viewer, replyId, options);
  authorizeThread(scope, 'delete_reply', reply);
  await tombstoneInScope(ctx, scope, reply, options);
  return { id: reply.id, commentId: reply.parentId! };
}

/** A live reply (not a comment) and its scope; 404 otherwise. */
async function loadReply(
  ctx: AppContext,
  viewer: UserRow | null,
  replyId: number,
  options: WriteOptions,
): Promise<{ scope: CommentScope; reply: ThreadComment }> {
  const found = await findCommentInThread(ctx.db, replyId);
  if (!found || found.parentId === null) throw notFound();
  const { scope, comment } = await loadComment(ctx, viewer, replyId, options);
  return { scope, reply: comment };
}
