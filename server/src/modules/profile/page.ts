import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPage } from '../pages/render.ts';
import { loadProfileBundle } from './service.ts';

/** The tabs of the current-profile page and the path of each. */
const TAB_PATHS = {
  profile: '/profile/',
  genres: '/profile/genres',
  notifications: '/profile/notification/preferences',
} as const;
type ProfileTab = keyof typeof TAB_PATHS;

/**
 * The current-profile page opened on a tab, with the whole bundle as page data so it needs
 * no extra fetch. Logged out: to the login page, and back here afterwards.
 */
export async function renderProfilePage(
  request: FastifyRequest,
  reply: FastifyReply,
  tab: ProfileTab,
) {
  if (!request.user) return reply.redirect(`/auth/login?next=${TAB_PATHS[tab]}`);
  const bundle = await loadProfileBundle(request.server.ctx, request.user);
  return renderPage(
    request,
    reply,
    'current-profile',
    tab === 'profile' ? bundle : { tab, ...bundle },
  );
}
