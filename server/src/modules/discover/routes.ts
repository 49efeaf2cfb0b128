import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  discoverRequest,
  discoverResponse,
  errorBody,
  MESSAGES,
  type DiscoverRequest,
} from '@margins/common';
import { HttpError, type FieldErrors } from '../../lib/http-errors.ts';
import { listCatalogue } from '../genres/service.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { search } from './service.ts';

const tags = ['discover'];

/** A search's field errors, as every form gets them. */
function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Discover (SPEC §2): the page, and the search behind it (API.md `POST /discover/`). */
export async function discoverRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  const runSearch = (request: FastifyRequest, input: DiscoverRequest) =>
    search(ctx.db, request.user, input);

  for (const url of ['/discover/', '/discover']) {
    app.post(
      url,
      {
        schema: {
          tags,
          hide: url === '/discover',
          summary:
            'Searches the manuscripts the caller may find (SPEC §7 discover_search_process).',
          body: discoverRequest,
          response: { 200: discoverResponse, 400: errorBody },
        },
      },
      async (request) => runSearch(request, request.body),
    );

    // The page: the search in the URL (?q=&fs=&genre_ids=1,2&page=&sort=) is run here, so the
    // first results arrive with the page; JSON with Accept: application/json.
    app.get(
      url,
      {
        schema: {
          tags,
          hide: url === '/discover',
          summary: 'The Discover page; with Accept: application/json the search of its URL.',
          querystring: z.record(z.string(), z.unknown()),
          response: { 200: discoverResponse, 400: errorBody },
        },
      },
      async (request, reply: FastifyReply) => {
        const parsed = discoverRequest.safeParse(request.query);
        if (wantsJson(request)) {
          if (!parsed.success) {
            throw new HttpError(400, MESSAGES.checkFormFields, fieldErrors(parsed.error));
          }
          return runSearch(request, parsed.data);
        }
        const input = parsed.success ? parsed.data : discoverRequest.parse({});
        const [results, genres] = await Promise.all([
          runSearch(request, input),
          listCatalogue(ctx.db),
        ]);
        return renderPage(request, reply, 'discover', {
          results,
          genres,
          error: parsed.success ? null : Object.values(fieldErrors(parsed.error)).flat()[0],
        });
      },
    );
  }
}
