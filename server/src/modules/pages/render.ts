import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageConfig } from '@margins/common';
import { presentCurrentUser } from '../users/presenter.ts';
import { preloadTags } from './preload.ts';

import { webDist } from '../../paths.ts';

const NOT_BUILT = `<!doctype html><html><head><meta charset="utf-8"><title>Margins</title></head>
<body><main data-page="not-built"><p>The web app is not built yet. Run <code>npm run build</code>
(or <code>npm start</code>, which builds it) and reload.</p></main><!--PAGE_CONFIG--></body></html>`;

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
export function buildPageConfig(
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
    productsEnabled: config.productsEnabled,
    invitesEnabled: config.invitesEnabled,
    data,
  };
}

/** The shell with the page's own chunk preloaded next to the main one. */
function withPreloads(html: string, page: string): string {
  return html.replace('</head>', () => `${preloadTags(page)}</head>`);
}

/** Sends the React shell with the page configuration injected as inert JSON. */
export function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: string,
  data: Record<string, unknown> = {},
  status = 200,
) {
  const json = JSON.stringify(buildPageConfig(request, page, data))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const html = withPreloads(shell(), page).replace(
    '<!--PAGE_CONFIG-->',
    `<script id="page-config" type="application/json">${json}</script>`,
  );
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
