import type { Bookmark, Invite } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { listReads } from '../bookmarks/service.ts';
import { pendingInvites } from './respond.ts';

/** The dashboard's reads (with progress) and pending invites, for its page data. */
export async function dashboardAccessData(
  ctx: AppContext,
  user: UserRow,
): Promise<{ bookmarks: Bookmark[]; invites: Invite[] }> {
  const [bookmarks, invites] = await Promise.all([listReads(ctx, user), pendingInvites(ctx, user)]);
  return { bookmarks, invites };
}
