import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import {
  EXPORT_KEEP_HOURS,
  THREAD_MESSAGES,
  type FeedbackExport,
  type SurveyType,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import { isOwner } from '../access/policy.ts';
import { loadScope, type CommentScope } from '../comments/scope.ts';
import { exportFeedbackJob } from './export-job.ts';

type ExportRow = typeof schema.feedbackExports.$inferSelect;

/** The manuscript's scope, for its owner only: others who may read it get 403, the rest 401/404. */
export async function loadOwnerScope(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<CommentScope> {
  const scope = await loadScope(ctx, viewer, manuscriptId);
  if (!viewer || !isOwner(viewer, scope.manuscript)) {
    throw forbidden(THREAD_MESSAGES.exportOwnerOnly);
  }
  return scope;
}

export function presentExport(row: ExportRow): FeedbackExport {
  return {
    id: row.id,
    manuscript_id: row.manuscriptId,
    format: 'docx',
    status: row.status,
    progress: row.progress,
    file_name: row.status === 'done' ? row.fileName : null,
    error: row.error,
    created: row.createdAt.toISOString(),
  };
}

/**
 * Starts a DOCX export as a job (the row and the job in one transaction) and answers at once;
 * the page polls the row. Finished exports older than a day are removed on the way.
 */
export async function startDocxExport(
  ctx: AppContext,
  scope: CommentScope,
): Promise<FeedbackExport> {
  await ctx.db
    .delete(schema.feedbackExports)
    .where(
      lt(
        schema.feedbackExports.createdAt,
        sql`now() - make_interval(hours => ${EXPORT_KEEP_HOURS})`,
      ),
    );
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(schema.feedbackExports)
      .values({ manuscriptId: scope.manuscript.id, requestedById: scope.viewer!.id })
      .returning();
    await ctx.jobs.send(tx, exportFeedbackJob, { exportId: created!.id });
    return created!;
  });
  ctx.jobs.wake(exportFeedbackJob);
  return presentExport(row);
}

/** One export of this manuscript (404 when it is another manuscript's or gone). */
export async function findExport(scope: CommentScope, ctx: AppContext, exportId: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.feedbackExports)
    .where(
      and(
        eq(schema.feedbackExports.id, exportId),
        eq(schema.feedbackExports.manuscriptId, scope.manuscript.id),
      ),
    );
  if (!row) throw notFound(THREAD_MESSAGES.exportMissing);
  return row;
}

/** The finished file; 409 while it is still being built. */
export async function exportFile(
  scope: CommentScope,
  ctx: AppContext,
  exportId: string,
): Promise<{ fileName: string; bytes: Buffer }> {
  const row = await findExport(scope, ctx, exportId);
  if (row.status === 'failed') throw conflict(row.error ?? THREAD_MESSAGES.exportFailed);
  if (row.status !== 'done' || !row.file) throw conflict(THREAD_MESSAGES.exportNotReady);
  return { fileName: row.fileName ?? 'feedback.docx', bytes: row.file };
}

/** The latest exports of a manuscript, newest first (the page offers the last finished one). */
export async function recentExports(ctx: AppContext, scope: CommentScope) {
  const rows = await ctx.db
    .select()
    .from(schema.feedbackExports)
    .where(eq(schema.feedbackExports.manuscriptId, scope.manuscript.id))
    .orderBy(desc(schema.feedbackExports.createdAt))
    .limit(5);
  return rows.map(presentExport);
}

/** The survey of a manuscript and its answers, with the readers' display names (no e-mail). */
export async function loadSurveyAnswers(ctx: AppContext, manuscriptId: number, type: SurveyType) {
  const [survey] = await ctx.db
    .select()
    .from(schema.surveys)
    .where(and(eq(schema.surveys.manuscriptId, manuscriptId), eq(schema.surveys.surveyType, type)));
  if (!survey) throw notFound(THREAD_MESSAGES.noSurvey);
  const answers = await ctx.db
    .select({ answer: schema.surveyAnswers, reader: schema.users.displayName })
    .from(schema.surveyAnswers)
    .innerJoin(schema.users, eq(schema.users.id, schema.surveyAnswers.userId))
    .where(eq(schema.surveyAnswers.surveyId, survey.id))
    .orderBy(asc(schema.surveyAnswers.createdAt), asc(schema.surveyAnswers.id));
  return { survey, answers };
}
