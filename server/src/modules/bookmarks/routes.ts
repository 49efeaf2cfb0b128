import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookmarkListQuery,
  bookmarkListResponse,
  bookmarkParams,
  bookmarkResponse,
  errorBody,
  okBody,
  readingProgressBody,
} from '@margins/common';
import { parseListQuery } from '../../lib/list-query.ts';
import { requireUser } from '../../plugins/session.ts';
import { wantsJson } from '../pages/render.ts';
import { pageReads } from './read-list.ts';
import { createBookmark, deleteBookmark, recordProgress } from './service.ts';

const tags = ['bookmarks'];
const security = [{ session: [], csrf: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/** Reads (bookmarks) and reading progress (API.md; the progress call is ours). */
export async function bookmarkRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.post(
    '/bookmark/:manuscript_id',
    {
      schema: {
        tags,
        security,
        description:
          "Adds the manuscript to the caller's reads. 404: no such manuscript; 403: may not read " +
          'it (a gate stands); 400: already there.',
        params: bookmarkParams,
        response: { 200: bookmarkResponse, ...errors },
      },
    },
    async (request) => ({
      bookmark: await createBookmark(ctx, requireUser(request), request.params.manuscript_id),
    }),
  );

  app.delete(
    '/bookmark/:manuscript_id',
    {
      schema: {
        tags,
        security,
        description: "Removes the manuscript from the caller's reads (404 when it is not there).",
        params: bookmarkParams,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await deleteBookmark(ctx, requireUser(request), request.params.manuscript_id);
      return { ok: true as const };
    },
  );

  app.post(
    '/bookmark/:manuscript_id/progress',
    {
      schema: {
        tags,
        security,
        description:
          'Records how far the reader got in a read: the furthest block index and percentage are ' +
          'kept (going back changes nothing). 404 when the manuscript is not in their reads.',
        params: bookmarkParams,
        body: readingProgressBody,
        response: { 200: bookmarkResponse, ...errors },
      },
    },
    async (request) => ({
      bookmark: await recordProgress(
        ctx,
        requireUser(request),
        request.params.manuscript_id,
        request.body,
      ),
    }),
  );

  app.get(
    '/user/current/bookmarks',
    {
      schema: {
        tags,
        description:
          "The caller's reads with progress (JSON), a page of the list contract: page, per_page, " +
          'sort (created, title, progress), order, q (title). A browser goes to the dashboard.',
        response: { 200: bookmarkListResponse, 400: errorBody, 401: errorBody },
      },
    },
    async (request, reply) => {
      if (!wantsJson(request)) {
        return request.user
          ? reply.redirect('/dashboard#reads')
          : reply.redirect(`/auth/login?next=${encodeURIComponent(request.url)}`);
      }
      const user = requireUser(request);
      const query = parseListQuery(bookmarkListQuery, request.query);
      const { items, total, page } = await pageReads(ctx, user, query);
      return { bookmarks: items, total, page };
    },
  );
}
