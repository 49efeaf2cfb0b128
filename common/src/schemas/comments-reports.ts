// Reports of a comment or a manuscript: the reasons, the report form and its answer.
import { z } from 'zod';
import { COMMENT_MESSAGES, REPORT_DESCRIPTION_MAX_LENGTH } from './comments.ts';
import { databaseId, idField } from './fields.ts';

export const REPORT_MODELS = ['comment', 'manuscript'] as const;
export type ReportModel = (typeof REPORT_MODELS)[number];

export const reportReason = z.object({
  id: z.number(),
  reason: z.string(),
  description: z.string().nullable(),
  /** The reporter must say more (reason_description) for this reason. */
  description_required: z.boolean(),
});
export type ReportReason = z.infer<typeof reportReason>;
export const reportReasonsResponse = z.object({ reasons: z.array(reportReason) });

/** POST /report/ (400 → {error: "Please check your fields", errors}). */
export const reportBody = z.object({
  model_name: z.enum(REPORT_MODELS, { error: 'Choose what to report: comment or manuscript.' }),
  report_element_id: databaseId,
  reason_id: idField(COMMENT_MESSAGES.noReport),
  reason_description: z
    .string()
    .trim()
    .max(REPORT_DESCRIPTION_MAX_LENGTH, `Use at most ${REPORT_DESCRIPTION_MAX_LENGTH} characters.`)
    .optional()
    .default(''),
});
export type ReportBody = z.infer<typeof reportBody>;
export const reportResponse = z.object({ ok: z.literal(true), message: z.string() });
