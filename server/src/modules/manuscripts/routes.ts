import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  documentStateResponse,
  errorBody,
  manuscriptEditBody,
  manuscriptIdParams,
  manuscriptListQuery,
  manuscriptListResponse,
  manuscriptResponse,
  manuscriptUploadFields,
  okBody,
  readerPageResponse,
  resultIdParams,
  uploadResponse,
} from '@margins/common';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { parseListQuery } from '../../lib/list-query.ts';
import { requireUser, requireVerifiedUser } from '../../plugins/session.ts';
import { listCatalogue } from '../genres/service.ts';
import { dashboardAccessData } from '../invites/dashboard.ts';
import { readerPath } from '../invites/share.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { readerFirstScreen } from '../pages/first-screen.ts';
import { multipartToBody, uploadedFile } from './multipart.ts';
import { findVersionReport } from './conversion-report.ts';
import { CONVERSION_MESSAGES, findConversion } from './processing.ts';
import { pageOwnManuscripts } from './own-list.ts';
import { findManuscript, listOwnManuscripts, presentOne } from './queries.ts';
import { authorizeChange, type ManuscriptChange } from './policy.ts';
import { findReadable, readerView } from './reader.ts';
import { sendReaderJson } from './reader-wire.ts';
import { conversionReportRoutes } from './report-routes.ts';
import { archiveManuscript, editManuscript } from './service.ts';
import { createFromUpload, uploadDraft } from './upload.ts';

const tags = ['manuscripts'];
const MULTIPART_OR_JSON = ['multipart/form-data', 'application/json'];
const errors = { 400: errorBody, 401: errorBody, 404: errorBody } as const;
/** The file part of a multipart upload, as OpenAPI shows it (read by multipartToBody). */
const fileFields = {
  docxfile: z.unknown().optional().meta({
    type: 'string',
    format: 'binary',
    description: 'The manuscript: DOCX, ODT, RTF, text, HTML or Markdown, up to 50 MB.',
  }),
};

/** Refuses before a (possibly 50 MB) body is read: log in first. */
const loggedIn = async (request: FastifyRequest) => {
  requireUser(request);
};

/** Refuses an unconfirmed e-mail address (403) before an upload is read. */
const verifiedEmail = async (request: FastifyRequest) => {
  requireVerifiedUser(request);
};

/**
 * `?format=json`: the reader's JSON answer without an Accept header (a page's preload sends
 * none). Any other value, or several, is left alone: the page's address with it is the page.
 */
const readerQuery = z.object({ format: z.union([z.string(), z.array(z.string())]).optional() });

/** A page for logged-in users only: everyone else goes to the login page and comes back. */
function redirectToLogin(request: FastifyRequest, reply: FastifyReply) {
  return reply.redirect(`/auth/login?next=${encodeURIComponent(request.url)}`);
}

/** Upload, processing state, edit, new draft, archive, reader, summary, dashboard (API.md). */
export async function manuscriptRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;
  await app.register(conversionReportRoutes);

  /** The manuscript of the URL, if the caller may make this change to it (policy.ts); else 404. */
  const changeable = async (request: FastifyRequest, action: ManuscriptChange) => {
    const params = manuscriptIdParams.safeParse(request.params);
    if (!params.success) throw notFound();
    const manuscript = await findManuscript(ctx.db, params.data.manuscript_id);
    return authorizeChange(requireUser(request), action, manuscript);
  };
  /** Only the author reaches a write route's body: checked before the upload is read. */
  const mayEditFirst = async (request: FastifyRequest) => {
    await changeable(request, 'edit');
  };
  const mayUploadDraftFirst = async (request: FastifyRequest) => {
    await changeable(request, 'upload_draft');
  };

  for (const url of ['/dashboard', '/user/current/manuscripts']) {
    app.get(
      url,
      {
        schema: {
          tags,
          hide: url === '/dashboard',
          description:
            "The caller's live manuscripts (JSON), a page of the list contract: page, per_page, " +
            'sort (created, updated, title, words), order, q (title, summary), category, ' +
            'visibility. Checked only for JSON: a browser goes to the dashboard.',
          response: { 200: manuscriptListResponse, 400: errorBody, 401: errorBody },
        },
      },
      async (request, reply) => {
        if (wantsJson(request)) {
          const user = requireUser(request);
          const query = parseListQuery(manuscriptListQuery, request.query);
          const { items, total, page } = await pageOwnManuscripts(ctx.db, user.id, query);
          return { manuscripts: items, total, page };
        }
        if (!request.user) return redirectToLogin(request, reply);
        const [manuscripts, categories, access] = await Promise.all([
          listOwnManuscripts(ctx.db, request.user.id),
          listCatalogue(ctx.db),
          dashboardAccessData(ctx, request.user),
        ]);
        return renderPage(request, reply, 'dashboard', {
          manuscripts,
          bookmarks: access.bookmarks,
          invites: access.invites,
          categories,
        });
      },
    );
  }

  app.get('/manuscript/upload', { schema: { hide: true } }, async (request, reply) => {
    if (!request.user) return redirectToLogin(request, reply);
    return renderPage(request, reply, 'upload', { categories: await listCatalogue(ctx.db) });
  });

  app.post(
    '/manuscript/document',
    {
      preValidation: [loggedIn, verifiedEmail, multipartToBody],
      schema: {
        tags,
        description:
          'Uploads a manuscript (multipart, the file in `docxfile`, with any of the edit form fields). ' +
          'Answers at once; poll the state call with `process_id`. 403 until the e-mail is ' +
          'confirmed; 413: too large, or over the word limit by its size alone; 429: the author ' +
          'has too many uploads waiting.',
        consumes: MULTIPART_OR_JSON,
        body: manuscriptUploadFields.extend(fileFields),
        response: {
          200: uploadResponse,
          ...errors,
          403: errorBody,
          413: errorBody,
          415: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { manuscript, conversionId } = await createFromUpload(
        ctx,
        user,
        uploadedFile(request),
        request.body,
      );
      return { manuscript: await presentOne(ctx.db, manuscript), process_id: conversionId };
    },
  );

  app.get(
    '/manuscript/document/state/:result_id',
    {
      schema: {
        tags,
        description: 'The state of an upload; only its author sees it (others: 404).',
        params: resultIdParams,
        response: { 200: documentStateResponse, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const conversion = await findConversion(ctx.db, request.params.result_id);
      if (!conversion || conversion.userId !== user.id) throw notFound();
      const manuscript = conversion.manuscriptId
        ? await findManuscript(ctx.db, conversion.manuscriptId)
        : null;
      const report =
        conversion.status === 'SUCCESS'
          ? await findVersionReport(ctx.db, conversion.versionId)
          : null;
      return {
        status: conversion.status,
        message: conversion.message ?? CONVERSION_MESSAGES[conversion.status],
        manuscript: manuscript ? await presentOne(ctx.db, manuscript) : null,
        ...(report ? { report } : {}),
      };
    },
  );

  app.post(
    '/manuscript/:manuscript_id/edit',
    {
      preValidation: [loggedIn, mayEditFirst, multipartToBody],
      schema: {
        tags,
        description: 'The edit form (multipart or JSON); fields left out keep their value.',
        consumes: MULTIPART_OR_JSON,
        params: manuscriptIdParams,
        body: manuscriptEditBody,
        response: { 200: manuscriptResponse, ...errors },
      },
    },
    async (request) => {
      const manuscript = await changeable(request, 'edit');
      const updated = await editManuscript(ctx, requireUser(request), manuscript, request.body);
      return { manuscript: await presentOne(ctx.db, updated) };
    },
  );

  app.post(
    '/manuscript/:manuscript_id/document',
    {
      preValidation: [loggedIn, verifiedEmail, mayUploadDraftFirst, multipartToBody],
      schema: {
        tags,
        description:
          'A new draft of the text (multipart, file in `docxfile`); earlier drafts are kept. ' +
          'Poll the state call with `process_id`. 403 until the e-mail is confirmed.',
        consumes: ['multipart/form-data'],
        params: manuscriptIdParams,
        body: z.object(fileFields),
        response: {
          200: uploadResponse,
          ...errors,
          403: errorBody,
          409: errorBody,
          413: errorBody,
          415: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => {
      const manuscript = await changeable(request, 'upload_draft');
      const result = await uploadDraft(
        ctx,
        requireUser(request),
        manuscript,
        uploadedFile(request),
      );
      return {
        manuscript: await presentOne(ctx.db, result.manuscript),
        process_id: result.conversionId,
      };
    },
  );

  app.delete(
    '/manuscript/:manuscript_id',
    {
      schema: {
        tags,
        description:
          'Archives the manuscript: gone from every list and the reader, kept in the database.',
        params: manuscriptIdParams,
        response: { 200: okBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const manuscript = await changeable(request, 'archive');
      await archiveManuscript(ctx, requireUser(request), manuscript);
      return { ok: true as const };
    },
  );

  app.get(
    '/manuscript/document/reader/:manuscript_id',
    {
      schema: {
        tags,
        description:
          'The reader page; with Accept: application/json (or `?format=json`) its configuration, ' +
          'manuscript, html, toc and words.',
        params: manuscriptIdParams,
        querystring: readerQuery,
        response: { 200: readerPageResponse, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { manuscript_id: manuscriptId } = request.params;
      if (wantsJson(request) || request.query.format === 'json') {
        return sendReaderJson(ctx, request, reply, manuscriptId);
      }
      try {
        const view = await readerView(ctx, request.user, manuscriptId);
        // The opening of the text in the page itself: it paints before the app has loaded. The
        // whole text comes from the JSON answer, which a returning reader has cached (304),
        // while the page (never cached) would carry it again each time.
        const firstScreen = readerFirstScreen(view);
        const data = view.html === '' ? view : { ...view, html: '', toc: [], text_from_json: true };
        // Where the text shows at once, the app asks for the whole text at once too: the
        // browser fetches it while the app loads (issue 18). Not the comments: a book's take the
        // server a few hundred ms to list when they changed, and the app's own chunks would wait
        // behind them; the app asks for them as it starts (web reader-helpers.ts).
        const fetches = firstScreen === '' ? [] : [`${readerPath(manuscriptId)}?format=json`];
        return renderPage(request, reply, 'reader', data, 200, undefined, firstScreen, fetches);
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) {
          return redirectToLogin(request, reply);
        }
        if (error instanceof HttpError && error.status === 404) {
          return renderPage(request, reply, 'not-found', {}, 404);
        }
        throw error;
      }
    },
  );

  app.get(
    '/manuscript/:manuscript_id/summary',
    {
      schema: {
        tags,
        description: 'The manuscript (SPEC §3) for anyone who may read it.',
        params: manuscriptIdParams,
        response: { 200: manuscriptResponse, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const manuscript = await findReadable(ctx, request.user, request.params.manuscript_id);
      return { manuscript: await presentOne(ctx.db, manuscript) };
    },
  );
}
