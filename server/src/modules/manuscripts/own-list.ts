import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Manuscript, ManuscriptListQuery } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { runList, type ListColumns, type ListPage } from '../../lib/list-query.ts';
import { presentMany } from './queries.ts';

const manuscripts = schema.manuscripts;

/** The fields of GET /user/current/manuscripts and the columns they read. */
const OWN_MANUSCRIPT_COLUMNS: ListColumns<ManuscriptListQuery> = {
  sort: {
    created: manuscripts.createdAt,
    updated: manuscripts.updatedAt,
    title: sql`lower(${manuscripts.title})`,
    words: manuscripts.words,
  },
  tieBreaker: manuscripts.id,
  filters: {
    category: (category) => eq(manuscripts.category, category),
    visibility: (visibility) => eq(manuscripts.visibility, visibility),
  },
  search: [manuscripts.title, manuscripts.summary],
};

/** One page of the user's live manuscripts (the dashboard's list call). */
export async function pageOwnManuscripts(
  db: Executor,
  userId: number,
  query: ManuscriptListQuery,
): Promise<ListPage<Manuscript>> {
  const own = and(eq(manuscripts.userId, userId), isNull(manuscripts.archivedAt));
  const page = await runList(query, OWN_MANUSCRIPT_COLUMNS, {
    count: async (where) => {
      const [row] = await db.select({ total: count() }).from(manuscripts).where(and(own, where));
      return row?.total ?? 0;
    },
    rows: ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(manuscripts)
        .where(and(own, where))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
  });
  return { ...page, items: await presentMany(db, page.items) };
}
