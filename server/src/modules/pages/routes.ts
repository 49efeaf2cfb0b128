import type { FastifyInstance } from 'fastify';
import { renderPage } from './render.ts';

/** Pages with no data of their own (SPEC §2); each renders the React shell. */
const STATIC_PAGES: Record<string, string> = {
  '/': 'home',
  '/ourthing': 'ourthing',
  '/terms': 'terms',
  '/privacy': 'privacy',
  '/membercontent': 'membercontent',
};

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  for (const [url, page] of Object.entries(STATIC_PAGES)) {
    app.get(url, { schema: { hide: true } }, (request, reply) => renderPage(request, reply, page));
  }
}
