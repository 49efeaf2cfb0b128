import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageConfig } from '@margins/common';
import { presentCurrentUser } from '../users/presenter.ts';
import { withFirstScreen } from './first-screen.ts';
import { preloadTags } from './preload.ts';
import { escapeHtml } from '../../lib/mail.ts';

import { webDist } from '../../paths.ts';

// Without the build the page still has its root, so a page's server-rendered first screen
// (the reader's opening) is there as it is in the built shell.
const NOT_BUILT = `<!doctype html><html><head><meta charset="utf-8"><title>Margins</title></head>
<body><main data-page="not-built"><p>The web app is not built yet. Run <code>npm run build</code>
(or <code>npm start</code>, which builds it) and reload.</p></main><div id="root"></div><!--PAGE_CONFIG--></body></html>`;

const PAGE_CONFIG_MARKER = '<!--PAGE_CONFIG-->';
let cachedShell: string | null = null;

function shell(): string {
  const file = path.join(webDist, 'index.html');
  if (cachedShell && process.env.NODE_ENV === 'production') return cachedShell;
  cachedShell = existsSync(file) ? readFileSync(file, 'utf8') : NOT_BUILT;
  return cachedShell;
}

/** True when the caller asked for JSON rather than a page (API.md conventions). */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The server-provided page configuration of SPEC §3 for this request. */
function buildPageConfig(
  request: FastifyRequest,
  page: string,
  data: Record<string, unknown> = {},
): PageConfig {
  const user = request.user;
  const { config } = request.server.ctx;
  return {
    page,
    currentUserId: user?.id ?? null,
    current_user_id: user?.id ?? null,
    currentUser: user ? presentCurrentUser(user) : null,
    loginState: !user ? 'anonymous' : user.signupCompletedAt ? 'logged_in' : 'incomplete',
    // The runtime switches (modules/features); the environment's values only before the
    // features hook ran (an error answered before it).
    productsEnabled: request.features?.productsEnabled ?? config.productsEnabled,
    invitesEnabled: request.features?.invitesEnabled ?? config.invitesEnabled,
    maintenanceNotice: request.features?.maintenanceNotice ?? null,
    data,
  };
}

/** Characters escaped in the inert JSON: `<` (no `</script>` or `<!--` can end or change the
 * script element), `>` and `&` for good measure, and U+2028/2029 (line breaks to old parsers). */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * The page configuration as the text of an inert `<script type="application/json">`: any
 * string round-trips through the browser's JSON.parse (JSON.stringify already escapes control
 * characters and lone surrogates).
 */
function serialisePageConfig(config: PageConfig): string {
  return JSON.stringify(config).replace(
    UNSAFE_IN_SCRIPT,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The shell with the configuration in place of its marker. Concatenation, not
 * String.replace: `$'`, `$&` and a dollar before a backtick in a user's text are replacement
 * patterns there.
 */
export function injectPageConfig(html: string, config: PageConfig): string {
  const at = html.indexOf(PAGE_CONFIG_MARKER);
  if (at === -1) return html;
  const script = `<script id="page-config" type="application/json">${serialisePageConfig(config)}</script>`;
  return html.slice(0, at) + script + html.slice(at + PAGE_CONFIG_MARKER.length);
}

/**
 * The shell with the page's preloads: what its first paint needs (fonts, styles) first in the
 * head, before any script; its own chunks next to the main one, at the head's end, and after
 * them the data the page is known to ask for first (`fetches`, same-origin GET paths).
 */
function withPreloads(html: string, page: string, fetches: readonly string[]): string {
  const { render, modules } = preloadTags(page);
  const end = html.indexOf('</head>');
  if (end === -1) return html;
  // As the app's API client asks (web api/client.ts: `credentials: 'include'`), or the
  // browser would not hand it the preloaded answer.
  const data = fetches
    .map(
      (url) =>
        `<link rel="preload" href="${escapeHtml(url)}" as="fetch" crossorigin="use-credentials">`,
    )
    .join('');
  let out = html.slice(0, end) + modules + data + html.slice(end);
  const script = out.indexOf('<script');
  const early = script !== -1 && script < end ? script : end;
  out = out.slice(0, early) + render + out.slice(early);
  return out;
}

/** What link previews read before any script runs: the page's own title and description. */
interface PageMeta {
  title: string;
  description: string;
}

/** Replaces the text between `start` and the next `end` (by position: user text is no pattern). */
function replaceBetween(html: string, start: string, end: string, text: string): string {
  const from = html.indexOf(start);
  if (from === -1) return html;
  const to = html.indexOf(end, from + start.length);
  if (to === -1) return html;
  return html.slice(0, from + start.length) + text + html.slice(to);
}

/** The shell with the page's title, description and Open Graph tags. */
function withMeta(html: string, meta: PageMeta | undefined): string {
  if (!meta) return html;
  const title = escapeHtml(`${meta.title} · Margins`);
  const description = escapeHtml(meta.description);
  let out = replaceBetween(html, '<title>', '</title>', title);
  out = replaceBetween(out, '<meta name="description" content="', '"', description);
  out = replaceBetween(out, '<meta\n      name="description"\n      content="', '"', description);
  const at = out.indexOf('</head>');
  if (at === -1) return out;
  const openGraph =
    `<meta property="og:title" content="${title}">` +
    `<meta property="og:description" content="${description}">` +
    '<meta property="og:type" content="profile">';
  return out.slice(0, at) + openGraph + out.slice(at);
}

/**
 * Sends the React shell with the page configuration injected as inert JSON, and optionally
 * static markup to show in the app's root until the app renders (first-screen.ts).
 */
export function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: string,
  data: Record<string, unknown> = {},
  status = 200,
  meta?: PageMeta,
  firstScreen = '',
  fetches: readonly string[] = [],
) {
  const html = injectPageConfig(
    withFirstScreen(withMeta(withPreloads(shell(), page, fetches), meta), firstScreen),
    buildPageConfig(request, page, data),
  );
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
