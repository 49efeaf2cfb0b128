import { and, asc, eq, sql } from 'drizzle-orm';
import {
  COMMENT_MESSAGES,
  MESSAGES,
  reportBody,
  type ReportBody,
  type ReportReason,
} from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { fieldErrorsOf } from '../../lib/field-errors.ts';
import { badRequest, HttpError, type FieldErrors } from '../../lib/http-errors.ts';
import { isOwner } from '../access/policy.ts';
import { can } from './policy.ts';
import { findCommentInThread } from './thread-queries.ts';
import { loadScope } from './scope.ts';

/** The reasons the report modal offers, in order. */
export async function listReportReasons(db: Executor): Promise<ReportReason[]> {
  const rows = await db
    .select()
    .from(schema.reportReasons)
    .where(eq(schema.reportReasons.active, true))
    .orderBy(asc(schema.reportReasons.position), asc(schema.reportReasons.id));
  return rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    description: row.description,
    description_required: row.descriptionRequired,
  }));
}

const refuse = (errors: FieldErrors) => badRequest(errors, MESSAGES.pleaseCheckFields);

/**
 * A report for moderators. Every refusal is a 400 "Please check your fields" with the errors
 * map (SPEC §5, §8): bad fields, an unknown reason, a missing description, something the
 * reporter cannot see, or their own comment or manuscript. Reporting the same thing again
 * updates the one report.
 */
export async function submitReport(
  ctx: AppContext,
  reporter: UserRow,
  input: unknown,
): Promise<void> {
  const parsed = reportBody.safeParse(input);
  if (!parsed.success) throw refuse(fieldErrorsOf(parsed.error));
  const body: ReportBody = parsed.data;
  const [reason] = await ctx.db
    .select()
    .from(schema.reportReasons)
    .where(and(eq(schema.reportReasons.id, body.reason_id), eq(schema.reportReasons.active, true)));
  if (!reason) throw refuse({ reason_id: [COMMENT_MESSAGES.noReport] });
  if (reason.descriptionRequired && body.reason_description === '') {
    throw refuse({ reason_description: [COMMENT_MESSAGES.describeReason] });
  }
  await checkReportable(ctx, reporter, body);
  await ctx.db
    .insert(schema.reports)
    .values({
      modelName: body.model_name,
      reportElementId: body.report_element_id,
      reasonId: reason.id,
      reasonDescription: body.reason_description,
      reporterId: reporter.id,
    })
    .onConflictDoUpdate({
      target: [schema.reports.reporterId, schema.reports.modelName, schema.reports.reportElementId],
      set: {
        reasonId: reason.id,
        reasonDescription: body.reason_description,
        status: 'open',
        updatedAt: sql`now()`,
      },
    });
}

/** The reporter must be able to see the element, and it must not be their own. */
async function checkReportable(
  ctx: AppContext,
  reporter: UserRow,
  body: ReportBody,
): Promise<void> {
  const missing = refuse({ report_element_id: [COMMENT_MESSAGES.reportMissing] });
  const comment =
    body.model_name === 'comment'
      ? await findCommentInThread(ctx.db, body.report_element_id)
      : null;
  if (body.model_name === 'comment' && (!comment || comment.deletedAt !== null)) throw missing;
  const manuscriptId = comment ? comment.manuscriptId : body.report_element_id;
  const scope = await loadScope(ctx, reporter, manuscriptId).catch((error: unknown) => {
    throw error instanceof HttpError ? missing : error;
  });
  if (!comment) {
    if (isOwner(reporter, scope.manuscript)) {
      throw refuse({ report_element_id: [COMMENT_MESSAGES.reportOwnManuscript] });
    }
    return;
  }
  if (comment.authorId === reporter.id) {
    throw refuse({ report_element_id: [COMMENT_MESSAGES.reportOwn] });
  }
  if (!can(reporter, 'report', comment, scope.manuscript, scope.access)) throw missing;
}
