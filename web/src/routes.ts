import { matchPath } from 'react-router';

/** One page URL the server renders (API.md), and the page name it renders it as. */
interface PageRoute {
  path: string;
  page: string;
  /**
   * The page needs nothing from the server but the user, so links to it navigate inside
   * the app. Other pages get their data injected by the server: links to them load the
   * document.
   */
  clientSide?: boolean;
}

/** The server's page URLs (API.md "Pages") in match order. */
export const PAGE_ROUTES: PageRoute[] = [
  { path: '/', page: 'home', clientSide: true },
  { path: '/ourthing', page: 'ourthing', clientSide: true },
  { path: '/terms', page: 'terms', clientSide: true },
  { path: '/privacy', page: 'privacy', clientSide: true },
  { path: '/membercontent', page: 'membercontent', clientSide: true },
  { path: '/contact', page: 'contact', clientSide: true },
  { path: '/auth/login', page: 'login', clientSide: true },
  { path: '/auth/signup', page: 'signup', clientSide: true },
  { path: '/auth/login/link', page: 'login-link' },
  { path: '/auth/logout', page: 'logout' },
  { path: '/auth/verify', page: 'verify' },
  { path: '/auth/callback', page: 'auth-callback' },
  { path: '/auth/complete/signup', page: 'complete-signup' },
  { path: '/auth/invite/landing/:invite_code', page: 'invite-landing' },
  { path: '/profile', page: 'current-profile' },
  { path: '/profile/genres', page: 'current-profile' },
  { path: '/profile/notification/preferences', page: 'current-profile' },
  { path: '/profile/get/:user_id', page: 'public-profile' },
  { path: '/profile/get/:user_id/manuscripts', page: 'public-profile' },
  { path: '/dev/mail', page: 'dev-mail' },
  { path: '/dashboard', page: 'dashboard' },
  { path: '/user/current/manuscripts', page: 'dashboard' },
  { path: '/user/current/bookmarks', page: 'dashboard' },
  { path: '/user/current/invites', page: 'dashboard' },
  { path: '/share/:code', page: 'share' },
  { path: '/products', page: 'products' },
  { path: '/payments/local/checkout/:session_id', page: 'local-checkout' },
  { path: '/payments/thanks/:session_id', page: 'payment-thanks' },
  { path: '/discover', page: 'discover' },
  { path: '/manuscript/upload', page: 'upload' },
  { path: '/manuscript/document/reader/:manuscript_id', page: 'reader' },
  { path: '/manuscript/:manuscript_id/survey/:survey_type/responses', page: 'm-survey-answers' },
  { path: '/admin/*', page: 'admin' },
  { path: '*', page: 'not-found' },
];

/** The route a URL path belongs to (the catch-all when none matches). */
export function routeFor(pathname: string): PageRoute {
  const route = PAGE_ROUTES.find((candidate) => matchPath(candidate.path, pathname));
  return route ?? { path: '*', page: 'not-found' };
}

/** True when a link to this app-local URL can navigate without loading the document. */
export function isClientSideUrl(to: string): boolean {
  if (!to.startsWith('/') || to.startsWith('//')) return false;
  const pathname = new URL(to, 'http://margins.invalid').pathname;
  return routeFor(pathname).clientSide === true;
}
