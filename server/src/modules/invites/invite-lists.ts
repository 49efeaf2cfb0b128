import { and, count, eq } from 'drizzle-orm';
import type {
  Invite,
  InviteListQuery,
  ManuscriptInvitesQuery,
  ManuscriptInvitesResponse,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { pageOfItems, runList, type ListColumns, type ListPage } from '../../lib/list-query.ts';
import { listPendingInvitesFor } from './queries.ts';
import { authorizeManage, presentInvites } from './shared.ts';

const invites = schema.invites;

/** The fields of GET /manuscript/{id}/invites and the columns they read. */
const MANUSCRIPT_INVITE_COLUMNS: ListColumns<ManuscriptInvitesQuery> = {
  sort: { created: invites.createdAt, status: invites.status, kind: invites.kind },
  tieBreaker: invites.id,
  filters: {
    kind: (kind) => eq(invites.kind, kind),
    status: (status) => eq(invites.status, status),
  },
  search: [invites.email, invites.code],
};

/** GET /manuscript/{id}/invites (author): a page of its invites, links, redemptions, requests. */
export async function pageManuscriptInvites(
  ctx: AppContext,
  author: UserRow,
  manuscriptId: number,
  query: ManuscriptInvitesQuery,
): Promise<ManuscriptInvitesResponse> {
  const manuscript = await authorizeManage(ctx, author, manuscriptId);
  const ofManuscript = eq(invites.manuscriptId, manuscript.id);
  const { items, total, page } = await runList(query, MANUSCRIPT_INVITE_COLUMNS, {
    count: async (where) => {
      const [row] = await ctx.db
        .select({ total: count() })
        .from(invites)
        .where(and(ofManuscript, where));
      return row?.total ?? 0;
    },
    rows: ({ where, orderBy, limit, offset }) =>
      ctx.db
        .select()
        .from(invites)
        .where(and(ofManuscript, where))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
  });
  return {
    visibility: manuscript.visibility,
    invites: await presentInvites(ctx, items, author),
    total,
    page,
  };
}

/**
 * GET /user/current/invites: a page of the user's pending invites. Its conditions (addressed
 * to the user or their verified address, live manuscripts) live in listPendingInvitesFor;
 * a user has few pending invites, so the page is cut in memory.
 */
export async function pagePendingInvites(
  ctx: AppContext,
  user: UserRow,
  query: InviteListQuery,
): Promise<ListPage<Invite>> {
  const newestFirst = await listPendingInvitesFor(ctx.db, user);
  const ordered = query.order === 'asc' ? [...newestFirst].reverse() : newestFirst;
  const page = pageOfItems(ordered, query);
  return { ...page, items: await presentInvites(ctx, page.items, user) };
}
