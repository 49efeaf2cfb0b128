import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBody,
  exportIdParams,
  feedbackExportResponse,
  feedbackExport,
  feedbackFileParams,
  feedbackRow,
  manuscriptIdParams,
  surveyExportParams,
} from '@margins/common';
import { contentDisposition } from '../../lib/file-names.ts';
import { requireUser } from '../../plugins/session.ts';
import { feedbackCsv, feedbackRows } from './feedback-rows.ts';
import { loadFeedbackData } from './feedback-data.ts';
import { exportFileName } from './file-names.ts';
import {
  exportFile,
  findExport,
  loadOwnerScope,
  loadSurveyAnswers,
  presentExport,
  recentExports,
  startDocxExport,
} from './service.ts';
import { surveyCsv } from './survey-csv.ts';

const tags = ['exports'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;
/** The Word file's bytes (sent as is, never serialized), documented as binary. */
const docxBytes = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ type: 'string', format: 'binary' });
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The export of all feedback (issue 16): owner only; DOCX as a job, CSV and JSON at once. */
export async function exportRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.post(
    '/manuscript/:manuscript_id/export/docx',
    {
      schema: {
        tags,
        description:
          'Starts a Word export of the manuscript with every comment and reply as a Word comment ' +
          '(a job: poll GET …/export/:export_id, then download). The manuscript’s owner only.',
        params: manuscriptIdParams,
        response: { 200: feedbackExportResponse, ...errors },
      },
    },
    async (request) => {
      const scope = await loadOwnerScope(ctx, requireUser(request), request.params.manuscript_id);
      return { export: await startDocxExport(ctx, scope) };
    },
  );

  app.get(
    '/manuscript/:manuscript_id/export/recent',
    {
      schema: {
        tags,
        description: 'The latest Word exports of the manuscript (newest first), for its owner.',
        params: manuscriptIdParams,
        response: { 200: z.object({ exports: z.array(feedbackExport) }), ...errors },
      },
    },
    async (request) => {
      const scope = await loadOwnerScope(ctx, requireUser(request), request.params.manuscript_id);
      return { exports: await recentExports(ctx, scope) };
    },
  );

  app.get(
    '/manuscript/:manuscript_id/export/feedback/:type',
    {
      schema: {
        tags,
        description:
          'Every comment and reply, one row each (chapter, quote, text, author, date, votes, ' +
          'reactions, resolved), as CSV or JSON. Names only, never e-mail addresses.',
        params: feedbackFileParams,
        response: { 200: z.array(feedbackRow).or(z.string()), ...errors },
      },
    },
    async (request, reply) => {
      const { manuscript_id: manuscriptId, type } = request.params;
      const scope = await loadOwnerScope(ctx, requireUser(request), manuscriptId);
      const data = await loadFeedbackData(ctx.db, scope.manuscript.id);
      const rows = feedbackRows(data);
      reply.header(
        'content-disposition',
        contentDisposition('attachment', exportFileName(data.title, type)),
      );
      if (type === 'json') return rows;
      reply.type('text/csv; charset=utf-8');
      return feedbackCsv(rows);
    },
  );

  app.get(
    '/manuscript/:manuscript_id/export/survey/:survey_type',
    {
      schema: {
        tags,
        description: 'The answers to the manuscript’s questionnaire or feedback survey, as CSV.',
        params: surveyExportParams,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { manuscript_id: manuscriptId, survey_type: type } = request.params;
      const scope = await loadOwnerScope(ctx, requireUser(request), manuscriptId);
      const { survey, answers } = await loadSurveyAnswers(ctx, scope.manuscript.id, type);
      reply.type('text/csv; charset=utf-8');
      reply.header(
        'content-disposition',
        contentDisposition(
          'attachment',
          exportFileName(scope.manuscript.title, 'csv', `${type} answers`),
        ),
      );
      return surveyCsv(
        survey.questions,
        answers.map(({ answer, reader }) => ({
          reader,
          created: answer.createdAt,
          score: answer.score,
          approved: answer.approvedAt !== null,
          answers: answer.answers,
        })),
      );
    },
  );

  app.get(
    '/manuscript/:manuscript_id/export/:export_id',
    {
      schema: {
        tags,
        description: 'The state of a Word export: queued, running (with progress), done or failed.',
        params: exportIdParams,
        response: { 200: feedbackExportResponse, ...errors },
      },
    },
    async (request) => {
      const scope = await loadOwnerScope(ctx, requireUser(request), request.params.manuscript_id);
      return { export: presentExport(await findExport(scope, ctx, request.params.export_id)) };
    },
  );

  app.get(
    '/manuscript/:manuscript_id/export/:export_id/download',
    {
      schema: {
        tags,
        description: 'The finished Word file (409 while it is still being built).',
        params: exportIdParams,
        response: {
          200: {
            description: 'The Word file.',
            content: { [DOCX_TYPE]: { schema: docxBytes } },
          },
          ...errors,
          409: errorBody,
        },
      },
    },
    async (request, reply) => {
      const scope = await loadOwnerScope(ctx, requireUser(request), request.params.manuscript_id);
      const file = await exportFile(scope, ctx, request.params.export_id);
      reply.type(DOCX_TYPE);
      reply.header('content-disposition', contentDisposition('attachment', file.fileName));
      return reply.send(file.bytes);
    },
  );
}
