import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  okBody,
  surveyAnswerBody,
  surveyAnswerListQuery,
  surveyAnswerParams,
  surveyAnswerResponse,
  surveyBody,
  surveyResponse,
  surveyResponsesResponse,
  surveySubmitResponse,
  surveyTypeParams,
} from '@margins/common';
import { HttpError } from '../../lib/http-errors.ts';
import { parseListQuery } from '../../lib/list-query.ts';
import { requireUser } from '../../plugins/session.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import {
  approveAnswer,
  deleteSurvey,
  getSurvey,
  listResponses,
  saveSurvey,
  submitAnswers,
} from './service.ts';

const tags = ['surveys'];
const security = [{ session: [], csrf: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/** Questionnaires (the reading gate) and feedback surveys, their answers and approval (API.md). */
export async function surveyRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get(
    '/manuscript/:manuscript_id/survey/:survey_type',
    {
      schema: {
        tags,
        description:
          'The survey (404 = none). The author gets the right answers; readers never do. The ' +
          'questionnaire is for whoever may open the manuscript; the feedback survey for readers ' +
          'past every gate (403 before).',
        params: surveyTypeParams,
        response: { 200: surveyResponse, ...errors },
      },
    },
    async (request) => ({
      survey: await getSurvey(
        ctx,
        request.user,
        request.params.manuscript_id,
        request.params.survey_type,
      ),
    }),
  );

  app.post(
    '/manuscript/survey',
    {
      schema: {
        tags,
        security,
        description:
          "The author creates or replaces the manuscript's questionnaire or feedback survey. " +
          'Answers already given are kept.',
        body: surveyBody,
        response: { 200: surveyResponse, ...errors },
      },
    },
    async (request) => ({ survey: await saveSurvey(ctx, requireUser(request), request.body) }),
  );

  app.delete(
    '/manuscript/:manuscript_id/survey/:survey_type',
    {
      schema: {
        tags,
        security,
        description:
          'The author removes the survey and its answers (removing the questionnaire lifts the gate).',
        params: surveyTypeParams,
        response: { 200: okBody, ...errors },
      },
    },
    async (request) => {
      await deleteSurvey(
        ctx,
        requireUser(request),
        request.params.manuscript_id,
        request.params.survey_type,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/manuscript/:manuscript_id/survey/:survey_type',
    {
      schema: {
        tags,
        security,
        description:
          "Submits the caller's answers (user_id must be theirs); final once submitted (409 after). " +
          'A questionnaire answer reaching the pass mark with auto-approval on is approved at once.',
        params: surveyTypeParams,
        body: surveyAnswerBody,
        response: { 200: surveySubmitResponse, ...errors, 409: errorBody },
      },
    },
    async (request) =>
      submitAnswers(
        ctx,
        requireUser(request),
        request.params.manuscript_id,
        request.params.survey_type,
        request.body,
      ),
  );

  app.get(
    '/manuscript/:manuscript_id/survey/:survey_type/responses',
    {
      schema: {
        tags,
        description:
          'The author: the survey answers page (`m-survey-answers`), or with Accept: ' +
          'application/json its data, the answers a page of the list contract: page, per_page, ' +
          'sort (created, score), order, approved (true/false).',
        params: surveyTypeParams,
        response: { 200: surveyResponsesResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { manuscript_id: manuscriptId, survey_type: surveyType } = request.params;
      if (wantsJson(request)) {
        const user = requireUser(request);
        const query = parseListQuery(surveyAnswerListQuery, request.query);
        return listResponses(ctx, user, manuscriptId, surveyType, query);
      }
      if (!request.user) {
        return reply.redirect(`/auth/login?next=${encodeURIComponent(request.url)}`);
      }
      try {
        const data = await listResponses(ctx, request.user, manuscriptId, surveyType);
        return renderPage(request, reply, 'm-survey-answers', data);
      } catch (error) {
        // Never show the answers page to anyone but the author; never say why.
        if (error instanceof HttpError && (error.status === 403 || error.status === 404)) {
          return renderPage(request, reply, 'not-found', {}, 404);
        }
        throw error;
      }
    },
  );

  app.get(
    '/manuscript/survey/answer/:survey_answer_id/approve',
    {
      schema: {
        tags,
        security,
        description:
          'The author approves a questionnaire answer (a GET that needs the CSRF header); the ' +
          'reader is mailed and may read. Approving twice changes nothing.',
        params: surveyAnswerParams,
        response: { 200: surveyAnswerResponse, ...errors },
      },
    },
    async (request) => ({
      answer: await approveAnswer(ctx, requireUser(request), request.params.survey_answer_id),
    }),
  );
}
