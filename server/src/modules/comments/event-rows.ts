import { and, eq, isNull } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { EventPayload, EventRows } from '../../events/definitions.ts';
import type { RowsReaders } from '../../events/recovered-rows.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import type { AuthorFields } from './presenter.ts';
import { authorColumns, findCommentInThread } from './thread-queries.ts';

// How the comment events' rows are read back when a recovered event is dispatched
// (events/recovered-rows.ts): registered on the bus by app.ts.

async function authorOf(db: Executor, userId: number): Promise<AuthorFields | null> {
  const [row] = await db
    .select(authorColumns)
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  return row ?? null;
}

/** A live highlight; null once it is gone (its fan-out would show what no longer exists). */
async function liveHighlight(db: Executor, selectionId: string) {
  const { highlights } = schema;
  const [row] = await db
    .select()
    .from(highlights)
    .where(and(eq(highlights.id, selectionId), isNull(highlights.deletedAt)));
  return row ?? null;
}

/** A live comment with its author, for new_comment; null once it is deleted. */
async function liveComment(
  db: Executor,
  payload: Pick<EventPayload<'comment.created'>, 'manuscriptId' | 'commentId'>,
): Promise<EventRows['comment.created'] | null> {
  const { comments } = schema;
  const [manuscript, [comment]] = await Promise.all([
    findManuscript(db, payload.manuscriptId),
    db
      .select()
      .from(comments)
      .where(and(eq(comments.id, payload.commentId), isNull(comments.deletedAt))),
  ]);
  if (!manuscript || !comment) return null;
  const author = await authorOf(db, comment.authorId);
  return author ? { manuscript, comment, author } : null;
}

/** A live reply with its writer and its thread's writer; null once it is deleted. */
async function liveReply(
  db: Executor,
  payload: EventPayload<'reply.created'>,
): Promise<EventRows['reply.created'] | null> {
  const [manuscript, reply] = await Promise.all([
    findManuscript(db, payload.manuscriptId),
    findCommentInThread(db, payload.replyId),
  ]);
  if (!manuscript || !reply || reply.deletedAt) return null;
  const author = await authorOf(db, reply.authorId);
  return author ? { manuscript, reply, author } : null;
}

/** The manuscript alone (deletes, votes, resolutions: the fan-out needs its room and rule). */
async function manuscriptRows(db: Executor, payload: { manuscriptId: number }) {
  const manuscript = await findManuscript(db, payload.manuscriptId);
  return manuscript ? { manuscript } : null;
}

/** A reply (deleted or not) with its manuscript. */
async function replyRows(db: Executor, payload: { manuscriptId: number; replyId: number }) {
  const [manuscript, reply] = await Promise.all([
    findManuscript(db, payload.manuscriptId),
    findCommentInThread(db, payload.replyId),
  ]);
  return manuscript && reply ? { manuscript, reply } : null;
}

/** The readers of every highlight, comment, reply and reaction event. */
export const commentEventRows: RowsReaders = {
  'highlight.created': async (db, payload) => {
    const [manuscript, highlight] = await Promise.all([
      findManuscript(db, payload.manuscriptId),
      liveHighlight(db, payload.selectionId),
    ]);
    return manuscript && highlight ? { manuscript, highlight } : null;
  },
  'comment.created': liveComment,
  'comment.updated': liveComment,
  'comment.flagged': liveComment,
  'comment.deleted': manuscriptRows,
  'comment.ranked': manuscriptRows,
  'comment.resolved': manuscriptRows,
  'reply.created': liveReply,
  'reply.updated': liveReply,
  'reply.deleted': replyRows,
  'reply.ranked': replyRows,
  'reaction.changed': async (db, payload) => {
    const [manuscript, target] = await Promise.all([
      findManuscript(db, payload.manuscriptId),
      findCommentInThread(db, payload.commentId),
    ]);
    return manuscript && target ? { manuscript, target } : null;
  },
};
