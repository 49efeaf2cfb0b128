import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessRequestParams,
  bookmarkResponse,
  errorBody,
  inviteByLinkBody,
  inviteByUserBody,
  inviteIdParams,
  inviteListQuery,
  inviteListResponse,
  inviteResponse,
  manuscriptIdParams,
  manuscriptInvitesQuery,
  manuscriptInvitesResponse,
  okBody,
  shareCodeParams,
  sharePageData,
  shareRedirectResponse,
} from '@margins/common';
import { HttpError, unauthorized } from '../../lib/http-errors.ts';
import { parseListQuery } from '../../lib/list-query.ts';
import { requireUser, requireVerifiedUser } from '../../plugins/session.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { pageManuscriptInvites, pagePendingInvites } from './invite-lists.ts';
import { acceptInvite, rejectInvite } from './respond.ts';
import { deleteInvite, inviteByLink, inviteByUserOrEmail } from './service.ts';
import { acceptShareLink, decideRequest, openShareLink, requestAccess } from './share.ts';

const tags = ['invites'];
const security = [{ session: [], csrf: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/** A logged-in page: everyone else logs in and comes back. */
const toLogin = (request: FastifyRequest, reply: FastifyReply) =>
  reply.redirect(`/auth/login?next=${encodeURIComponent(request.url)}`);

/** Invites, share links and access requests (API.md; the request routes are ours). */
export async function inviteRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.post(
    '/manuscript/:manuscript_id/invite/user',
    {
      schema: {
        tags,
        security,
        description:
          'The author invites an account (by handle or e-mail; mailed when their preferences allow) ' +
          'or an address without an account (mailed a sign-up link; the invite waits for them). ' +
          '404: no account with that handle; 400: they already have access or an invite; 403: ' +
          'the author has not confirmed their own e-mail yet.',
        params: manuscriptIdParams,
        body: inviteByUserBody,
        response: { 200: inviteResponse, ...errors, 429: errorBody },
      },
    },
    async (request) => ({
      invite: await inviteByUserOrEmail(
        ctx,
        requireVerifiedUser(request),
        request.params.manuscript_id,
        request.body,
      ),
    }),
  );

  app.post(
    '/manuscript/:manuscript_id/invite/link',
    {
      schema: {
        tags,
        security,
        description:
          "Sets the manuscript's invite type to `access` and answers a share link: a new one-time " +
          'link when `useInvite` (private only), else the standing link (`code` picks one).',
        params: manuscriptIdParams,
        body: inviteByLinkBody,
        response: { 200: inviteResponse, ...errors },
      },
    },
    async (request) => ({
      invite: await inviteByLink(
        ctx,
        requireVerifiedUser(request),
        request.params.manuscript_id,
        request.body,
      ),
    }),
  );

  app.get(
    '/manuscript/:manuscript_id/invites',
    {
      schema: {
        tags,
        security,
        description:
          'The author: every invite, link, redemption and access request of the manuscript (Share ' +
          'tab), a page of the list contract: page, per_page, sort (created, status, kind), order, ' +
          'q (address, code), kind, status.',
        params: manuscriptIdParams,
        querystring: manuscriptInvitesQuery,
        response: { 200: manuscriptInvitesResponse, ...errors },
      },
    },
    async (request) =>
      pageManuscriptInvites(ctx, requireUser(request), request.params.manuscript_id, request.query),
  );

  app.delete(
    '/manuscript/invite/:invite_id',
    {
      schema: {
        tags,
        security,
        description:
          'The author (or sender) removes an invite, link, redemption or request, and the access it ' +
          "gave (a link's redemptions too); those readers leave the socket room.",
        params: inviteIdParams,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await deleteInvite(ctx, requireUser(request), request.params.invite_id);
      return { ok: true as const };
    },
  );

  app.post(
    '/manuscript/:manuscript_id/access/:request_id/:decision',
    {
      schema: {
        tags,
        security,
        description:
          'The author approves (the reader is mailed and may read) or refuses an access request ' +
          'to a restricted manuscript.',
        params: accessRequestParams,
        response: { 200: inviteResponse, ...errors },
      },
    },
    async (request) => ({
      invite: await decideRequest(
        ctx,
        requireUser(request),
        request.params.manuscript_id,
        request.params.request_id,
        request.params.decision,
      ),
    }),
  );

  app.post(
    '/invite/:invite_id/accept',
    {
      schema: {
        tags,
        security,
        description:
          'The invitee accepts; the manuscript joins their reads. 403: not theirs; 404: gone.',
        params: inviteIdParams,
        response: { 200: bookmarkResponse, ...errors },
      },
    },
    async (request) => ({
      bookmark: await acceptInvite(ctx, requireUser(request), request.params.invite_id),
    }),
  );

  app.delete(
    '/invite/:invite_id',
    {
      schema: {
        tags,
        security,
        description:
          'The invitee declines (or leaves): the invite is marked rejected, the read removed.',
        params: inviteIdParams,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await rejectInvite(ctx, requireUser(request), request.params.invite_id);
      return { ok: true as const };
    },
  );

  app.get(
    '/user/current/invites',
    {
      schema: {
        tags,
        description:
          "The caller's pending invites (JSON), a page of the list contract (page, per_page, " +
          "order); a browser goes to the dashboard's invite list.",
        response: { 200: inviteListResponse, 400: errorBody, 401: errorBody },
      },
    },
    async (request, reply) => {
      if (!wantsJson(request)) {
        return request.user ? reply.redirect('/dashboard#invites') : toLogin(request, reply);
      }
      const user = requireUser(request);
      const query = parseListQuery(inviteListQuery, request.query);
      const { items, total, page } = await pagePendingInvites(ctx, user, query);
      return { invites: items, total, page };
    },
  );

  app.get(
    '/share/:code',
    {
      schema: {
        tags,
        description:
          'Share-link landing; changes nothing (a cross-site link cannot accept for anyone). A ' +
          'browser is redirected (to the reader when it may read already, or to log in and back) ' +
          'or shown page `share` (state `accept`: the manuscript and a button that POSTs ' +
          '/share/{code}/accept); with Accept: application/json the redirect target, or the page ' +
          'data with its status (401 when logging in is needed).',
        params: shareCodeParams,
        response: {
          200: shareRedirectResponse.or(sharePageData),
          401: errorBody,
          403: sharePageData,
          404: sharePageData,
        },
      },
    },
    async (request, reply) => {
      const outcome = await openShareLink(ctx, request.user, request.params.code);
      if (wantsJson(request)) {
        if ('redirect' in outcome) {
          if (outcome.redirect.startsWith('/auth/login')) throw unauthorized();
          return { redirect: outcome.redirect };
        }
        return reply.status(outcome.status).send(outcome.data);
      }
      if ('redirect' in outcome) return reply.redirect(outcome.redirect);
      return renderPage(request, reply, 'share', outcome.data, outcome.status);
    },
  );

  app.post(
    '/share/:code/accept',
    {
      schema: {
        tags,
        security,
        description:
          "The landing's Accept button: accepts the invite addressed to the caller, or redeems a " +
          'private link (a one-time link only once), adds the manuscript to their reads and answers ' +
          "the reader's path. 403: used or someone else's; 404: gone; 409: restricted (ask instead).",
        params: shareCodeParams,
        response: { 200: shareRedirectResponse, ...errors, 409: errorBody },
      },
    },
    async (request) => {
      const outcome = await acceptShareLink(ctx, requireUser(request), request.params.code);
      if ('redirect' in outcome) return { redirect: outcome.redirect };
      throw new HttpError(outcome.status === 200 ? 409 : outcome.status, outcome.data.message);
    },
  );

  app.post(
    '/share/:code/request',
    {
      schema: {
        tags,
        security,
        description:
          'Asks the author of a restricted manuscript for access through its share link; the ' +
          'author is mailed (reader_needs_approval). 400: already has access; 403: refused before.',
        params: shareCodeParams,
        response: { 200: inviteResponse, ...errors },
      },
    },
    async (request) => ({
      invite: await requestAccess(ctx, requireUser(request), request.params.code),
    }),
  );
}
