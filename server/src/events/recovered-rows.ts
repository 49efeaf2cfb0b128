// A recovered event (its process died before dispatching it) has only its stored payload: the
// rows a live writer hands to the fan-out are read back here, by the payload's ids.
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/index.ts';
import { findCommentInThread } from '../modules/comments/thread-queries.ts';
import { schema } from '../db/index.ts';
import type {
  DomainEvent,
  EventAuthor,
  EventPayload,
  EventRows,
  EventType,
} from './definitions.ts';

type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

async function manuscriptOf(db: Executor, id: number): Promise<ManuscriptRow | null> {
  const [row] = await db.select().from(schema.manuscripts).where(eq(schema.manuscripts.id, id));
  return row ?? null;
}

async function authorOf(db: Executor, userId: number): Promise<EventAuthor | null> {
  const { users } = schema;
  const [row] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      handle: users.handle,
      pictureMediaId: users.pictureMediaId,
    })
    .from(users)
    .where(eq(users.id, userId));
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
    manuscriptOf(db, payload.manuscriptId),
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
    manuscriptOf(db, payload.manuscriptId),
    findCommentInThread(db, payload.replyId),
  ]);
  if (!manuscript || !reply || reply.deletedAt) return null;
  const author = await authorOf(db, reply.authorId);
  return author ? { manuscript, reply, author } : null;
}

type Loader<Type extends EventType> = (
  db: Executor,
  payload: EventPayload<Type>,
) => Promise<EventRows[Type] | null>;

const none = async () => undefined;

/** Per type: the rows as they are now, or null when what the event is about is gone. */
const LOADERS: { [Type in EventType]: Loader<Type> } = {
  'manuscript.visibility_changed': none,
  'manuscript.archived': none,
  'manuscript.gate_changed': none,
  'access.revoked': none,
  'access.granted': async (db, payload) => {
    const [manuscript, [reader]] = await Promise.all([
      manuscriptOf(db, payload.manuscriptId),
      db.select().from(schema.users).where(eq(schema.users.id, payload.userId)),
    ]);
    return manuscript && reader ? { reader, manuscript } : null;
  },
  'highlight.created': async (db, payload) => {
    const [manuscript, highlight] = await Promise.all([
      manuscriptOf(db, payload.manuscriptId),
      liveHighlight(db, payload.selectionId),
    ]);
    return manuscript && highlight ? { manuscript, highlight } : null;
  },
  'comment.created': liveComment,
  'comment.updated': liveComment,
  'comment.deleted': async (db, payload) => {
    const manuscript = await manuscriptOf(db, payload.manuscriptId);
    return manuscript ? { manuscript } : null;
  },
  'comment.ranked': async (db, payload) => {
    const manuscript = await manuscriptOf(db, payload.manuscriptId);
    return manuscript ? { manuscript } : null;
  },
  'manuscript.flagged': async (db, payload) => {
    const manuscript = await manuscriptOf(db, payload.manuscriptId);
    if (!manuscript) return null;
    const [author] = await db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, manuscript.userId));
    return author ? { manuscript, author } : null;
  },
  'comment.flagged': liveComment,
  'user.suspended': none,
  'user.unsuspended': none,
  'reply.created': liveReply,
  'reply.updated': liveReply,
  'reply.deleted': async (db, payload) => {
    const [manuscript, reply] = await Promise.all([
      manuscriptOf(db, payload.manuscriptId),
      findCommentInThread(db, payload.replyId),
    ]);
    return manuscript && reply ? { manuscript, reply } : null;
  },
  'reply.ranked': async (db, payload) => {
    const [manuscript, reply] = await Promise.all([
      manuscriptOf(db, payload.manuscriptId),
      findCommentInThread(db, payload.replyId),
    ]);
    return manuscript && reply ? { manuscript, reply } : null;
  },
  'comment.resolved': async (db, payload) => {
    const manuscript = await manuscriptOf(db, payload.manuscriptId);
    return manuscript ? { manuscript } : null;
  },
  'reaction.changed': async (db, payload) => {
    const [manuscript, target] = await Promise.all([
      manuscriptOf(db, payload.manuscriptId),
      findCommentInThread(db, payload.commentId),
    ]);
    return manuscript && target ? { manuscript, target } : null;
  },
};

/**
 * The event with its rows read back from the database, as a live writer would have emitted it;
 * null when what it is about is gone (a comment deleted since: nothing left to fan out).
 */
export async function withRowsReadBack<Type extends EventType>(
  db: Executor,
  event: { type: Type; actorId: number | null; payload: EventPayload<Type>; eventId: number },
): Promise<DomainEvent | null> {
  const loader = LOADERS[event.type] as Loader<Type>;
  const rows = await loader(db, event.payload);
  if (rows === null) return null;
  return { ...event, rows } as unknown as DomainEvent;
}
