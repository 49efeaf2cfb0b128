import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Manuscript } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { presentManuscript, type ManuscriptDetails, type ManuscriptRow } from './presenter.ts';

/** A manuscript by id, archived ones included (the policy decides who sees those). */
export async function findManuscript(db: Executor, id: number): Promise<ManuscriptRow | null> {
  const [row] = await db.select().from(schema.manuscripts).where(eq(schema.manuscripts.id, id));
  return row ?? null;
}

/** A manuscript to present, as far as finding its details goes. */
interface ManuscriptRef {
  id: number;
  userId: number;
}

/** `refs`, as a table of id, user_id and position (from 1), for the statements below. */
function refsTable(refs: ManuscriptRef[]) {
  const ids = sql`${`{${refs.map((ref) => ref.id).join(',')}}`}::integer[]`;
  const userIds = sql`${`{${refs.map((ref) => ref.userId).join(',')}}`}::integer[]`;
  return sql`unnest(${ids}, ${userIds}) with ordinality as refs(id, user_id, position)`;
}

/** What presenting a manuscript needs besides its row: its author, genres and live comments. */
function detailFields() {
  const { genres, manuscriptGenres: links, comments } = schema;
  return {
    author: schema.users,
    genres: sql<Array<{ id: number; name: string }>>`(
      select coalesce(json_agg(json_build_object('id', ${genres.id}, 'name', ${genres.name})
                               order by ${genres.name}, ${genres.id}), '[]'::json)
      from ${links} join ${genres} on ${genres.id} = ${links.genreId}
      where ${links.manuscriptId} = refs.id)`,
    commentCount: sql<number>`(
      select count(*) from ${comments}
      where ${comments.manuscriptId} = refs.id and ${comments.deletedAt} is null)`.mapWith(Number),
  };
}

/**
 * Authors, genres and live comment counts of several manuscripts, in one statement (a list's
 * cards cost one round trip, not one per kind of detail), in the order given.
 */
async function loadDetails(
  db: Executor,
  refs: ManuscriptRef[],
): Promise<Array<Omit<ManuscriptDetails, 'manuscript'>>> {
  if (refs.length === 0) return [];
  return db
    .select(detailFields())
    .from(refsTable(refs))
    .innerJoin(schema.users, eq(schema.users.id, sql`refs.user_id`))
    .orderBy(sql`refs.position`);
}

/**
 * Presents the manuscripts of these ids, each with the owner its caller found it with (a search
 * row), rows and details in one statement, in the order given. One gone since is left out.
 */
export async function presentManyById(db: Executor, refs: ManuscriptRef[]): Promise<Manuscript[]> {
  if (refs.length === 0) return [];
  const rows = await db
    .select({ ...detailFields(), manuscript: schema.manuscripts })
    .from(refsTable(refs))
    .innerJoin(schema.users, eq(schema.users.id, sql`refs.user_id`))
    .innerJoin(
      schema.manuscripts,
      and(
        eq(schema.manuscripts.id, sql`refs.id`),
        eq(schema.manuscripts.userId, sql`refs.user_id`),
      ),
    )
    .orderBy(sql`refs.position`);
  return rows.map(presentManuscript);
}

/** Presents several manuscripts (see presentManuscript). */
export async function presentMany(db: Executor, rows: ManuscriptRow[]): Promise<Manuscript[]> {
  const details = await loadDetails(db, rows);
  return rows.map((manuscript, index) => presentManuscript({ manuscript, ...details[index]! }));
}

/** Presents one manuscript. */
export async function presentOne(db: Executor, row: ManuscriptRow): Promise<Manuscript> {
  const [presented] = await presentMany(db, [row]);
  return presented!;
}

/** A user's live (not archived) manuscripts, newest first: the dashboard list. */
export async function listOwnManuscripts(db: Executor, userId: number): Promise<Manuscript[]> {
  const rows = await db
    .select()
    .from(schema.manuscripts)
    .where(and(eq(schema.manuscripts.userId, userId), isNull(schema.manuscripts.archivedAt)))
    .orderBy(desc(schema.manuscripts.createdAt), desc(schema.manuscripts.id));
  return presentMany(db, rows);
}
