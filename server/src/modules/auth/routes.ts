import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authResponse,
  completeSignupBody,
  errorBody,
  loginBody,
  loginLinkBody,
  loginLinkResponse,
  loginLinkConfirmBody,
  MESSAGES,
  okBody,
  SIGNUP_COOKIE,
  signupBody,
  signupResponse,
  verifyQuery,
  verifyResponse,
} from '@margins/common';
import { requireUser } from '../../plugins/session.ts';
import { findInviteByCode } from '../invites/queries.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { presentCurrentUser } from '../users/presenter.ts';
import { knownDeviceOf, rememberDevice } from './devices.ts';
import { sendLoginLink, useLoginLink } from './login-link.ts';
import * as auth from './service.ts';
import { endSession, startSession } from './sessions.ts';

const tags = ['auth'];
const nextQuery = z.object({ next: z.string().max(500).optional() });

/** Sign up, verify, log in, log out, complete sign-up, invite landing (API.md). */
export async function authRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  for (const page of ['login', 'signup'] as const) {
    app.get(`/auth/${page}`, { schema: { hide: true, querystring: nextQuery } }, (request, reply) =>
      renderPage(request, reply, page, { next: auth.safeNext(request.query.next) }),
    );
  }
  app.get('/auth/callback', { schema: { hide: true } }, (request, reply) =>
    renderPage(request, reply, 'auth-callback', { configured: false }),
  );

  app.post(
    '/auth/signup',
    {
      schema: {
        tags,
        description:
          'Answers the same for a new address and one that has an account (no one learns which): ' +
          "a new or never-verified address is mailed a verification link, a verified account's " +
          'owner a note that someone tried to sign up. Only this browser is logged in by the link.',
        body: signupBody,
        response: { 200: signupResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { browserToken } = await auth.signup(ctx, request.body, request.ip);
      reply.setCookie(SIGNUP_COOKIE, auth.browserMark(browserToken), {
        path: '/auth',
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.config.publicUrl.startsWith('https:'),
        maxAge: auth.VERIFY_HOURS * 3600,
      });
      return { message: MESSAGES.checkInbox, next: '/auth/verify' };
    },
  );

  app.get(
    '/auth/verify',
    {
      schema: {
        tags,
        description:
          'Confirms the address. Logs in only the browser that signed up (or one already logged ' +
          'in as that account); any other browser is sent to log in with the password.',
        querystring: verifyQuery.partial(),
        response: { 200: verifyResponse, 400: errorBody },
      },
    },
    async (request, reply) => {
      if (!request.query.token) return renderPage(request, reply, 'verify', { state: 'sent' });
      const verified = await auth.verifyEmail(ctx, request.query.token);
      if (!verified) {
        if (wantsJson(request)) {
          return reply.status(400).send({ error: 'This verification link is invalid or expired.' });
        }
        return renderPage(request, reply, 'verify', { state: 'invalid' }, 400);
      }
      const next = verified.user.signupCompletedAt ? verified.next : '/auth/complete/signup';
      // The link proves the inbox, not the browser: a link sent to someone else (an attacker's
      // own, say) must not log them into the attacker's account. Only the browser marked at
      // sign-up, or one already logged in as this account, goes on logged in.
      const marked = request.cookies[SIGNUP_COOKIE] === auth.browserMark(request.query.token);
      if (marked || request.user?.id === verified.user.id) {
        if (request.user?.id !== verified.user.id) {
          await startSession(ctx, request, reply, verified.user);
        }
        reply.clearCookie(SIGNUP_COOKIE, { path: '/auth' });
        if (wantsJson(request)) return { user: presentCurrentUser(verified.user), next };
        return reply.redirect(next);
      }
      const login = `/auth/login?verified=1&next=${encodeURIComponent(next)}`;
      if (wantsJson(request)) return { user: null, next: login };
      return reply.redirect(login);
    },
  );

  app.post(
    '/auth/verify/resend',
    { schema: { tags, response: { 200: okBody } } },
    async (request) => {
      const user = requireUser(request);
      if (!user.emailVerifiedAt) await auth.sendVerification(ctx, user);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        body: loginBody.extend({ next: z.string().max(500).optional() }),
        response: { 200: authResponse, 400: errorBody, 401: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const user = await auth.login(ctx, request.body, request.ip, (candidate) =>
        knownDeviceOf(ctx, request, candidate.id),
      );
      await startSession(ctx, request, reply, user);
      await rememberDevice(ctx, request, reply, user);
      const next = user.signupCompletedAt
        ? auth.safeNext(request.body.next)
        : '/auth/complete/signup';
      return { user: presentCurrentUser(user), next };
    },
  );

  app.post(
    '/auth/login/link',
    {
      schema: {
        tags,
        description: 'Mails a one-time log-in link to the account of this address, if any.',
        body: loginLinkBody,
        response: { 200: loginLinkResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      await sendLoginLink(ctx, request.body, request.ip);
      return { ok: true as const, message: MESSAGES.loginLinkSent };
    },
  );
  // Opening the mailed link only shows a button: the log-in itself is the POST below (with
  // the CSRF header), so a link planted on another site cannot log anyone in.
  app.get(
    '/auth/login/link',
    { schema: { hide: true, querystring: z.object({ token: z.string().max(200).optional() }) } },
    (request, reply) =>
      renderPage(request, reply, 'login-link', { token: request.query.token ?? '' }),
  );
  app.post(
    '/auth/login/link/confirm',
    {
      schema: {
        tags,
        description: 'Logs in with a mailed one-time link (once, before it expires).',
        body: loginLinkConfirmBody,
        response: { 200: authResponse, 400: errorBody },
      },
    },
    async (request, reply) => {
      const used = await useLoginLink(ctx, request.body.token);
      if (!used) return reply.status(400).send({ error: MESSAGES.loginLinkInvalid });
      await startSession(ctx, request, reply, used.user);
      await rememberDevice(ctx, request, reply, used.user);
      const next = used.user.signupCompletedAt ? used.next : '/auth/complete/signup';
      return { user: presentCurrentUser(used.user), next };
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags, response: { 200: okBody } } },
    async (request, reply) => {
      await endSession(ctx, request, reply);
      return { ok: true as const };
    },
  );
  app.get('/auth/logout', { schema: { hide: true } }, (request, reply) =>
    renderPage(request, reply, 'logout'),
  );

  app.get('/auth/complete/signup', { schema: { hide: true } }, (request, reply) => {
    if (!request.user) return reply.redirect('/auth/login?next=/auth/complete/signup');
    return renderPage(request, reply, 'complete-signup');
  });
  app.post(
    '/auth/complete/signup',
    { schema: { tags, body: completeSignupBody, response: { 200: authResponse, 400: errorBody } } },
    async (request) => {
      const before = requireUser(request);
      const user = await auth.completeSignup(ctx, before, request.body);
      const next = before.signupCompletedAt
        ? '/dashboard'
        : await auth.nextAfterSignup(ctx, user.id);
      return { user: presentCurrentUser(user), next };
    },
  );

  app.get(
    '/auth/invite/landing/:invite_code',
    { schema: { hide: true, params: z.object({ invite_code: z.string().max(64) }) } },
    async (request, reply) => {
      // A manuscript invite's code belongs to its share link; platform invite codes land here.
      const { invite_code: code } = request.params;
      if (await findInviteByCode(ctx.db, code)) {
        return reply.redirect(`/share/${encodeURIComponent(code)}`);
      }
      return renderPage(request, reply, 'invite-landing', { invite_code: code });
    },
  );
}
