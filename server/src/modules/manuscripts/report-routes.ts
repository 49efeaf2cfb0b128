import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, manuscriptIdParams, manuscriptReportResponse } from '@margins/common';
import { requireUser } from '../../plugins/session.ts';
import { presentCurrentReport } from './conversion-report.ts';
import { authorizeChange } from './policy.ts';
import { findManuscript } from './queries.ts';

/** GET /manuscript/:manuscript_id/report: the conversion report of the current draft. */
export async function conversionReportRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;
  app.get(
    '/manuscript/:manuscript_id/report',
    {
      schema: {
        tags: ['manuscripts'],
        description:
          'What the conversion of the current draft kept (words, chapters, pictures, notes, tables, formulas) and what it could not, with why. Only the author sees it (others: 404).',
        params: manuscriptIdParams,
        response: { 200: manuscriptReportResponse, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const manuscript = authorizeChange(
        requireUser(request),
        'edit',
        await findManuscript(ctx.db, request.params.manuscript_id),
      );
      return presentCurrentReport(ctx.db, manuscript);
    },
  );
}
