import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { CommentListResponse, Highlight } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { canSeeCommentText, canSeeHighlightText } from './policy.ts';
import {
  presentAuthor,
  presentComment,
  presentHighlight,
  presentListedComment,
  type AuthorFields,
  type CommentRow,
  type HighlightRow,
} from './presenter.ts';
import type { CommentScope } from './scope.ts';
import { recordStaffCommentReveals } from './staff-reveals.ts';

/** Repeats are harmless (clients merge by id); a missed change is not: step the cursor back. */
const CURSOR_MARGIN_SECONDS = 10;

const authorColumns = {
  id: schema.users.id,
  displayName: schema.users.displayName,
  handle: schema.users.handle,
  pictureMediaId: schema.users.pictureMediaId,
};

export async function findHighlight(db: Executor, id: string): Promise<HighlightRow | null> {
  const [row] = await db.select().from(schema.highlights).where(eq(schema.highlights.id, id));
  return row ?? null;
}

export async function findAuthor(db: Executor, userId: number): Promise<AuthorFields> {
  const [row] = await db
    .select(authorColumns)
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  if (!row) throw notFound();
  return row;
}

/** The viewer's votes on some comments: comment id → ±1 (absent: 0). */
async function votesOf(
  db: Executor,
  viewerId: number | undefined,
  commentIds: number[],
): Promise<Map<number, -1 | 1>> {
  if (viewerId === undefined || commentIds.length === 0) return new Map();
  const rows = await db
    .select({ commentId: schema.commentVotes.commentId, value: schema.commentVotes.value })
    .from(schema.commentVotes)
    .where(
      and(
        eq(schema.commentVotes.userId, viewerId),
        inArray(schema.commentVotes.commentId, commentIds),
      ),
    );
  return new Map(rows.map((row) => [row.commentId, row.value === 1 ? 1 : -1]));
}

/** This viewer's vote on one comment. */
export async function voteOf(
  db: Executor,
  viewerId: number,
  commentId: number,
): Promise<-1 | 0 | 1> {
  return (await votesOf(db, viewerId, [commentId])).get(commentId) ?? 0;
}

/**
 * A manuscript's comments and highlights as the scope's viewer may see them, in document order
 * (orphans last) then rank; those private comments hide from the viewer after them, by age.
 * With `since`: only what changed after it, deletions as tombstones.
 */
export async function listManuscriptComments(
  db: Executor,
  scope: CommentScope,
  since?: Date,
): Promise<CommentListResponse> {
  const manuscriptId = scope.manuscript.id;
  const highlightFilter = since
    ? and(eq(schema.highlights.manuscriptId, manuscriptId), gt(schema.highlights.changedAt, since))
    : and(eq(schema.highlights.manuscriptId, manuscriptId), isNull(schema.highlights.deletedAt));
  // Replies (issue 16) are listed by the threads call: GET …/threads.
  const commentFilter = since
    ? and(
        eq(schema.comments.manuscriptId, manuscriptId),
        gt(schema.comments.changedAt, since),
        isNull(schema.comments.parentId),
      )
    : and(
        eq(schema.comments.manuscriptId, manuscriptId),
        isNull(schema.comments.deletedAt),
        isNull(schema.comments.parentId),
      );
  // The viewer's own vote comes with each comment (a left join on the primary key), so the
  // list is two statements whatever its length: no per-comment query, no id list sent back.
  const viewerId = scope.viewer?.id ?? null;
  const [highlightRows, commentRows] = await Promise.all([
    db
      .select()
      .from(schema.highlights)
      .where(highlightFilter)
      .orderBy(
        asc(schema.highlights.orphaned),
        asc(schema.highlights.textStart),
        asc(schema.highlights.createdAt),
      ),
    db
      .select({
        comment: schema.comments,
        author: authorColumns,
        vote: schema.commentVotes.value,
        highlightUserId: schema.highlights.userId,
      })
      .from(schema.comments)
      .innerJoin(schema.highlights, eq(schema.highlights.id, schema.comments.selectionId))
      .innerJoin(schema.users, eq(schema.users.id, schema.comments.authorId))
      .leftJoin(
        schema.commentVotes,
        and(
          eq(schema.commentVotes.commentId, schema.comments.id),
          viewerId === null ? sql`false` : eq(schema.commentVotes.userId, viewerId),
        ),
      )
      .where(commentFilter)
      .orderBy(
        asc(schema.highlights.orphaned),
        asc(schema.highlights.textStart),
        desc(schema.comments.rank),
        asc(schema.comments.id),
      ),
  ]);
  // A hidden highlight's place in document order would locate it among the visible ones.
  const hidden = (userId: number) =>
    !canSeeHighlightText(scope.viewer, { userId }, scope.manuscript);
  const live = hiddenLast(
    commentRows.filter((row) => row.comment.deletedAt === null),
    (row) => hidden(row.highlightUserId),
    (row) => [row.comment.createdAt.getTime(), row.comment.id],
  );
  const myVote = (vote: number | null) =>
    scope.viewer ? (vote === null ? 0 : vote === 1 ? 1 : -1) : undefined;
  const authors: CommentListResponse['authors'] = {};
  for (const row of live) authors[row.author.id] ??= presentAuthor(row.author);
  await recordStaffCommentReveals(
    db,
    scope,
    live.map((row) => row.comment),
  );
  return {
    comments: live.map((row) =>
      presentListedComment(
        row.comment,
        scope.viewer,
        scope.manuscript,
        myVote(row.vote),
        scope.access,
      ),
    ),
    authors,
    highlights: hiddenLast(
      highlightRows.filter((row) => row.deletedAt === null),
      (row) => hidden(row.userId),
      (row) => [row.createdAt.getTime(), row.id],
    ).map((row) => presentHighlight(row, scope.viewer, scope.manuscript)),
    deleted: {
      comments: commentRows
        .filter((row) => row.comment.deletedAt !== null)
        .map((row) => row.comment.id),
      highlights: highlightRows.filter((row) => row.deletedAt !== null).map((row) => row.id),
    },
    cursor: listCursor(scope, highlightRows, commentRows, since).toISOString(),
  };
}

/**
 * `rows` with those `isHidden` moved to the end in the order they were made (`key`): the rest
 * keep their (document) order.
 */
function hiddenLast<T>(
  rows: T[],
  isHidden: (row: T) => boolean,
  key: (row: T) => [number, number | string],
): T[] {
  const shown = rows.filter((row) => !isHidden(row));
  const hiddenRows = rows.filter(isHidden).sort((a, b) => {
    const [aTime, aId] = key(a);
    const [bTime, bId] = key(b);
    return aTime - bTime || (aId < bId ? -1 : aId > bId ? 1 : 0);
  });
  return [...shown, ...hiddenRows];
}

/**
 * Where the next `since` may start: the latest change this viewer can see in the answer,
 * stepped back by the margin (a transaction that began earlier may commit later), and never
 * before `since`. Taken from the data alone (not the clock), an unchanged list answers the same
 * bytes, so its ETag holds; and an edit of a comment whose text the viewer may not see moves
 * nothing they are sent.
 */
function listCursor(
  scope: CommentScope,
  highlights: HighlightRow[],
  comments: Array<{ comment: CommentRow }>,
  since: Date | undefined,
): Date {
  let latest = 0;
  const seen = (changed: Date, created: Date, visible: boolean, deleted: boolean) => {
    latest = Math.max(latest, (visible || deleted ? changed : created).getTime());
  };
  for (const row of highlights) {
    const visible = canSeeHighlightText(scope.viewer, row, scope.manuscript);
    seen(row.changedAt, row.createdAt, visible, row.deletedAt !== null);
  }
  for (const { comment } of comments) {
    const visible = canSeeCommentText(scope.viewer, comment, scope.manuscript, scope.access);
    seen(comment.changedAt, comment.createdAt, visible, comment.deletedAt !== null);
  }
  return new Date(Math.max(since?.getTime() ?? 0, latest - CURSOR_MARGIN_SECONDS * 1000));
}

/** One highlight and its live comments, ordered by rank; 404 when gone or elsewhere. */
export async function listSelectionComments(
  db: Executor,
  scope: CommentScope,
  highlight: HighlightRow,
): Promise<{ highlight: Highlight; comments: ReturnType<typeof presentComment>[] }> {
  const rows = await db
    .select({ comment: schema.comments, author: authorColumns })
    .from(schema.comments)
    .innerJoin(schema.users, eq(schema.users.id, schema.comments.authorId))
    .where(
      and(
        eq(schema.comments.selectionId, highlight.id),
        isNull(schema.comments.deletedAt),
        isNull(schema.comments.parentId),
      ),
    )
    .orderBy(desc(schema.comments.rank), asc(schema.comments.id));
  const votes = await votesOf(
    db,
    scope.viewer?.id,
    rows.map((row) => row.comment.id),
  );
  return {
    highlight: presentHighlight(highlight, scope.viewer, scope.manuscript),
    comments: rows.map((row) =>
      presentComment(
        row.comment,
        row.author,
        scope.viewer,
        scope.manuscript,
        scope.viewer ? (votes.get(row.comment.id) ?? 0) : undefined,
      ),
    ),
  };
}
