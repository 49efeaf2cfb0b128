import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  genreIdParams,
  interestsResponse,
  okBody,
  profileGenresResponse,
  userIdParams,
} from '@margins/common';
import { notFound } from '../../lib/http-errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { wantsJson } from '../pages/render.ts';
import { renderProfilePage } from '../profile/page.ts';
import { findPublicUser } from '../profile/service.ts';
import * as genres from './service.ts';

const tags = ['genres'];

/** The genre catalogue, the caller's genre preferences, and anyone's interests. */
export async function genreRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get(
    '/profile/genres',
    {
      schema: {
        tags,
        security: [{ session: [] }],
        response: { 200: profileGenresResponse, 401: errorBody },
      },
    },
    async (request, reply) => {
      if (!wantsJson(request)) return renderProfilePage(request, reply, 'genres');
      const user = requireUser(request);
      const [categories, selected] = await Promise.all([
        genres.listCatalogue(ctx.db),
        genres.listSelectedGenreIds(ctx.db, user.id),
      ]);
      return { categories, selected_genre_ids: selected };
    },
  );

  const toggleSchema = {
    tags,
    security: [{ session: [], csrf: [] }],
    params: genreIdParams,
    response: { 200: okBody, 401: errorBody, 403: errorBody, 404: errorBody },
  };

  app.put(
    '/profile/genres/:genre_id',
    { schema: { ...toggleSchema, description: 'Adds a genre to your preferences (idempotent).' } },
    async (request) => {
      const user = requireUser(request);
      await genres.addUserGenre(ctx.db, user.id, request.params.genre_id);
      return { ok: true as const };
    },
  );

  app.delete(
    '/profile/genres/:genre_id',
    {
      schema: {
        ...toggleSchema,
        description: 'Removes a genre from your preferences (idempotent).',
      },
    },
    async (request) => {
      const user = requireUser(request);
      await genres.removeUserGenre(ctx.db, user.id, request.params.genre_id);
      return { ok: true as const };
    },
  );

  app.get(
    '/profile/user/:user_id/genres',
    {
      schema: { tags, params: userIdParams, response: { 200: interestsResponse, 404: errorBody } },
    },
    async (request) => {
      const user = await findPublicUser(ctx.db, request.params.user_id);
      if (!user) throw notFound();
      return { interests: await genres.listInterests(ctx.db, user.id) };
    },
  );
}
