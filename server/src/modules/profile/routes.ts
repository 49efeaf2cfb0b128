import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  certifyResponse,
  errorBody,
  generateInviteResponse,
  lookupQuery,
  lookupResponse,
  matureBody,
  notificationPreferencesBody,
  notificationPreferencesResponse,
  profileBundle,
  profileFormErrorResponse,
  profileFormResponse,
  publicManuscriptsResponse,
  publicProfileResponse,
  userIdParams,
} from '@margins/common';
import { authorize, HttpError } from '../../lib/http-errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { presentCurrentUser, presentPublicUser } from '../users/presenter.ts';
import { readProfileInput, sendFormErrors, validateProfileInput } from './form.ts';
import { createInviteCode } from './invite-codes.ts';
import { listProfileManuscripts } from './manuscripts.ts';
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from './notification-preferences.ts';
import { renderProfilePage } from './page.ts';
import { can } from './policy.ts';
import { presentInviteCode, presentLookupUser } from './presenter.ts';
import {
  PROFILE_FORM_CONTENT_TYPES,
  profileFormDocumentedBody,
  profileFormQuery,
  skipBodyValidation,
} from './schema.ts';
import * as profile from './service.ts';

type PublicProfile = NonNullable<Awaited<ReturnType<typeof profile.findPublicProfile>>>;

const tags = ['profile'];
const security = [{ session: [] }];
const securityWithCsrf = [{ session: [], csrf: [] }];

/** The current user's profile, preferences, invite codes; lookup; public profiles (API.md). */
export async function profileRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get(
    '/profile/',
    { schema: { tags, security, response: { 200: profileBundle, 401: errorBody } } },
    async (request, reply) => {
      if (!wantsJson(request)) return renderProfilePage(request, reply, 'profile');
      return profile.loadProfileBundle(ctx, requireUser(request));
    },
  );

  app.post(
    '/profile/',
    {
      schema: {
        tags,
        security: securityWithCsrf,
        consumes: PROFILE_FORM_CONTENT_TYPES,
        querystring: profileFormQuery,
        body: profileFormDocumentedBody,
        response: { 200: profileFormResponse, 400: profileFormErrorResponse, 401: errorBody },
      },
      validatorCompiler: skipBodyValidation,
    },
    async (request, reply) => {
      const user = requireUser(request);
      try {
        // A form that cannot be read is answered like a field error (the 400 shape has `form`).
        const input = validateProfileInput(await readProfileInput(request));
        if (!input.ok) return sendFormErrors(reply, input.errors);
        const updated = await profile.updateProfile(ctx, user, input.values, input.picture);
        return { form: { errors: {} }, user: presentCurrentUser(updated) };
      } catch (error) {
        if (error instanceof HttpError && error.status === 400 && error.errors) {
          return sendFormErrors(reply, error.errors, error.message);
        }
        throw error;
      }
    },
  );

  app.get(
    '/profile/notification/preferences',
    {
      schema: {
        tags,
        security,
        response: { 200: notificationPreferencesResponse, 401: errorBody },
      },
    },
    async (request, reply) => {
      if (!wantsJson(request)) return renderProfilePage(request, reply, 'notifications');
      const user = requireUser(request);
      return { notification_preferences: await getNotificationPreferences(ctx.db, user.id) };
    },
  );

  app.post(
    '/profile/notification/preferences',
    {
      schema: {
        tags,
        security: securityWithCsrf,
        body: notificationPreferencesBody,
        response: { 200: notificationPreferencesResponse, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const saved = await updateNotificationPreferences(ctx.db, user.id, request.body);
      return { notification_preferences: saved };
    },
  );

  app.get(
    '/profile/generate/invite',
    {
      schema: {
        tags,
        security: securityWithCsrf,
        description:
          'Creates a platform invite code (a GET that changes state: needs the CSRF header).',
        response: { 200: generateInviteResponse, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      authorize(can(user, 'createInviteCode', user));
      const { inviteCode, remaining } = await createInviteCode(ctx, user);
      return { invite_code: presentInviteCode(inviteCode), invites_remaining: remaining };
    },
  );

  app.get(
    '/profile/certify18',
    {
      schema: {
        tags,
        security: securityWithCsrf,
        description: 'Certifies that the user is 18 or over (a GET that needs the CSRF header).',
        response: { 200: certifyResponse, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      await profile.certifyAdult(ctx.db, requireUser(request));
      return { certified_18: true as const };
    },
  );

  app.post(
    '/profile/mature',
    {
      schema: {
        tags,
        security: securityWithCsrf,
        body: matureBody,
        response: { 200: matureBody, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { show_mature: await profile.setShowMature(ctx.db, user, request.body.show_mature) };
    },
  );

  app.get(
    '/profile/lookup',
    {
      schema: {
        tags,
        security,
        description: 'Invite autocomplete: handle or display name prefix; never e-mail addresses.',
        querystring: lookupQuery,
        response: { 200: lookupResponse, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const users = await profile.lookupUsers(ctx.db, user, request.query.q);
      return { users: users.map(presentLookupUser) };
    },
  );

  /** The public profile page: the user, their interests and the manuscripts the visitor may open. */
  const renderPublicProfile = async (
    request: FastifyRequest<{ Params: { user_id: number } }>,
    reply: FastifyReply,
    found: PublicProfile,
  ) => {
    const user = presentPublicUser(found.user);
    const manuscripts = await listProfileManuscripts(ctx.db, request.user, found.user.id);
    const about = found.user.about?.trim();
    return renderPage(
      request,
      reply,
      'public-profile',
      { user, interests: found.interests, manuscripts },
      200,
      {
        title: user.display_name,
        description: about
          ? about.slice(0, 200)
          : `${user.display_name} on Margins: ${manuscripts.length} manuscript${manuscripts.length === 1 ? '' : 's'} to beta-read.`,
      },
    );
  };

  /**
   * A public profile's route: 404 (a page to a browser) for no such profile; the profile page
   * to a browser; `json(found)` to a client asking for JSON.
   */
  const publicProfileRoute = async <Body>(
    request: FastifyRequest<{ Params: { user_id: number } }>,
    reply: FastifyReply,
    json: (found: PublicProfile) => Promise<Body>,
  ) => {
    const found = await profile.findPublicProfile(ctx.db, request.params.user_id);
    const wantsData = wantsJson(request);
    if (!found) {
      if (wantsData) authorize(false, true);
      return renderPage(request, reply, 'not-found', {}, 404);
    }
    return wantsData ? json(found) : renderPublicProfile(request, reply, found);
  };

  app.get(
    '/profile/get/:user_id',
    {
      schema: {
        tags,
        params: userIdParams,
        response: { 200: publicProfileResponse, 404: errorBody },
      },
    },
    async (request, reply) =>
      publicProfileRoute(request, reply, async (found) => ({
        user: presentPublicUser(found.user),
        interests: found.interests,
      })),
  );

  app.get(
    '/profile/get/:user_id/manuscripts',
    {
      schema: {
        tags,
        description:
          'The manuscripts of a public profile that the caller may open (SPEC §7 public_manuscripts); ' +
          'a browser gets the public profile page, opened at its manuscripts.',
        params: userIdParams,
        response: { 200: publicManuscriptsResponse, 404: errorBody },
      },
    },
    async (request, reply) =>
      publicProfileRoute(request, reply, async (found) => ({
        manuscripts: await listProfileManuscripts(ctx.db, request.user, found.user.id),
      })),
  );
}
