import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bookmarkParams,
  errorBody,
  heatResponse,
  insightsReaderParams,
  insightsResponse,
  insightsSettingsBody,
  okBody,
  ownReadingResponse,
  readingBatchBody,
  stopReadingBody,
} from '@margins/common';
import { requireUser } from '../../plugins/session.ts';
import { renderPage } from '../pages/render.ts';
import { completeReading, ownReading, recordReading, stopReading } from '../bookmarks/reading.ts';
import { nudgeReader } from './reminders.ts';
import { heatOf, insightsOf, saveInsightsSettings } from './service.ts';
import { unsubscribe, unsubscribeState } from './unsubscribe.ts';

const tags = ['insights'];
const security = [{ session: [], csrf: [] }];
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  429: errorBody,
} as const;

/** Reading insights (issue 15): the reader's progress batches, the author's Insights, reminders. */
export async function insightsRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.post(
    '/bookmark/:manuscript_id/reading',
    {
      schema: {
        tags,
        security,
        description:
          'A batch of reading time: the blocks the reader had on screen (active and visible ' +
          'time only) and for how long. Kept as per-chapter aggregates; a block earns time once. ' +
          '404 when the manuscript is not in their reads, 403 when they may not read it.',
        params: bookmarkParams,
        body: readingBatchBody,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await recordReading(ctx, requireUser(request), request.params.manuscript_id, request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/manuscript/:manuscript_id/reading',
    {
      schema: {
        tags,
        description: "The caller's own progress in a read, per chapter (nobody else's).",
        params: bookmarkParams,
        response: { 200: ownReadingResponse, ...errors },
      },
    },
    async (request) => ownReading(ctx, requireUser(request), request.params.manuscript_id),
  );

  app.post(
    '/manuscript/:manuscript_id/reading/stop',
    {
      schema: {
        tags,
        security,
        description:
          '"I\'m stopping here": the reader stops, with a reason from the list and optional text; ' +
          'the author sees it against the chapter. No more reminders for this read.',
        params: bookmarkParams,
        body: stopReadingBody,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await stopReading(ctx, requireUser(request), request.params.manuscript_id, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/manuscript/:manuscript_id/complete',
    {
      schema: {
        tags,
        security,
        description: 'Document complete (API.md): the reader finished the manuscript.',
        params: bookmarkParams,
        response: { 200: z.object({ finished: z.string() }), ...errors },
      },
    },
    async (request) => completeReading(ctx, requireUser(request), request.params.manuscript_id),
  );

  app.get(
    '/manuscript/:manuscript_id/insights',
    {
      schema: {
        tags,
        description:
          "The author's Insights: drop-off per chapter, time and engagement per chapter, the " +
          'readers with their progress, and why readers stopped. Owner only (403).',
        params: bookmarkParams,
        response: { 200: insightsResponse, ...errors },
      },
    },
    async (request) => insightsOf(ctx, requireUser(request), request.params.manuscript_id),
  );

  app.get(
    '/manuscript/:manuscript_id/insights/heat',
    {
      schema: {
        tags,
        description: 'Highlights and comments per block of the current draft (owner only).',
        params: bookmarkParams,
        response: { 200: heatResponse, ...errors },
      },
    },
    async (request) => heatOf(ctx, requireUser(request), request.params.manuscript_id),
  );

  app.put(
    '/manuscript/:manuscript_id/insights/settings',
    {
      schema: {
        tags,
        security,
        description: 'Idle days before a reader is reminded (1–90), or null for no reminders.',
        params: bookmarkParams,
        body: insightsSettingsBody,
        response: { 200: z.object({ reminder_days: z.number().int().nullable() }), ...errors },
      },
    },
    async (request) =>
      saveInsightsSettings(ctx, requireUser(request), request.params.manuscript_id, request.body),
  );

  app.post(
    '/manuscript/:manuscript_id/insights/readers/:user_id/nudge',
    {
      schema: {
        tags,
        security,
        description:
          'The author reminds one reader by hand: one a day per reader, a few a day per author (429).',
        params: insightsReaderParams,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      const { manuscript_id, user_id } = request.params;
      await nudgeReader(ctx, requireUser(request), manuscript_id, user_id);
      return { ok: true as const };
    },
  );

  const tokenParams = z.object({ token: z.string().min(1).max(200) });
  const statusOf = { done: 200, ready: 200, used: 410, unknown: 404 } as const;

  app.get(
    '/unsubscribe/:token',
    {
      schema: {
        tags,
        description:
          'The unsubscribe link of a mail (no login): a page that says what the link does, with ' +
          'a button that does it (POST). Following the link changes nothing.',
        params: tokenParams,
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { outcome, message } = await unsubscribeState(ctx, token);
      const data = { outcome, message, action: `/unsubscribe/${encodeURIComponent(token)}` };
      return renderPage(request, reply, 'unsubscribe', data, statusOf[outcome]);
    },
  );

  app.post(
    '/unsubscribe/:token',
    {
      // No login and no CSRF token: a mail client's one-click POST (RFC 8058) has neither; the
      // token in the path is the secret, and all it can do is turn that kind of mail off.
      config: { csrf: false },
      schema: {
        tags,
        description:
          'Unsubscribes (no login, no CSRF token): the button of the unsubscribe page, or a mail ' +
          "client's one-click POST (RFC 8058, body List-Unsubscribe=One-Click). Turns that kind " +
          'of mail off, once: 410 when the link was used, 404 when unknown.',
        params: tokenParams,
        response: { 200: okBody, 404: errorBody, 410: errorBody },
      },
    },
    async (request, reply) => {
      const { outcome, message } = await unsubscribe(ctx, request.params.token);
      const status = statusOf[outcome];
      if (request.headers.accept?.includes('text/html')) {
        return renderPage(request, reply, 'unsubscribe', { outcome, message }, status);
      }
      if (outcome === 'done') return { ok: true as const };
      return reply.status(status).send({ error: message });
    },
  );
}
