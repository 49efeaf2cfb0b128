// Moderation (issue 14): the report queue and the moderators' actions' input. The admin router
// (h2) serves them as the moderation-report section and the bulk actions of manuscript, comment
// and user; these are the shapes the moderation services speak.
import { z } from 'zod';
import { MODERATION_MESSAGES } from '../messages-moderation.ts';
import { MODERATION_REASON_MAX_LENGTH } from '../constants.ts';
import { singleLineText } from './fields.ts';
import { listQuery, listResponse } from './list.ts';
import { REPORT_MODELS } from './comments-reports.ts';

/** A flag's or a suspension's reason: shown to readers (flags) and to the user (suspension). */
export const moderationReason = singleLineText()
  .pipe(
    z
      .string()
      .trim()
      .min(1, MODERATION_MESSAGES.reasonRequired)
      .max(MODERATION_REASON_MAX_LENGTH, `Use at most ${MODERATION_REASON_MAX_LENGTH} characters.`),
  )
  .describe('Why: shown to the author and readers (flag) or the user (suspension).');

/** The report queue: reported elements, newest report first. */
export const reportQueueQuery = listQuery({
  sort: ['latest'],
  defaultSort: 'latest',
  defaultOrder: 'desc',
  filters: {
    /** open (default): elements with an open report; all: every reported element. */
    status: z.enum(['open', 'all'], { error: 'Use open or all.' }).default('open'),
    model_name: z.enum(REPORT_MODELS, { error: 'Use comment or manuscript.' }).optional(),
  },
});
export type ReportQueueQuery = z.infer<typeof reportQueueQuery>;

/** One report in a group. */
export const queuedReport = z.object({
  id: z.number(),
  reason: z.string(),
  /** What the reporter wrote. */
  description: z.string(),
  reporter: z.object({ id: z.number(), display_name: z.string() }),
  status: z.enum(['open', 'resolved', 'dismissed']),
  created: z.string(),
});

/** One reported element with its reports. */
export const reportGroup = z.object({
  model_name: z.enum(REPORT_MODELS),
  element_id: z.number(),
  /** The element's text: the comment, or the manuscript's title and summary. */
  text: z.string(),
  /** Where it is: the passage a comment is on, or the manuscript's author. */
  context: z.string(),
  manuscript_id: z.number().nullable(),
  /** Who wrote it (the comment's writer, the manuscript's author): the one a suspension hits. */
  author: z.object({ id: z.number(), display_name: z.string() }).nullable(),
  /** The element is gone (deleted comment, archived or removed manuscript). */
  missing: z.boolean(),
  moderation_flag: z.boolean(),
  moderation_reason: z.string().nullable(),
  open_count: z.number(),
  latest: z.string(),
  reports: z.array(queuedReport),
});
export type ReportGroup = z.infer<typeof reportGroup>;
export const reportQueueResponse = listResponse(reportGroup);
export type ReportQueueResponse = z.infer<typeof reportQueueResponse>;

/** Sent to a manuscript's room when a moderator flags it or clears its flag. */
export const manuscriptFlaggedEvent = z.object({
  room: z.string(),
  manuscript_id: z.number(),
  moderation_flag: z.boolean(),
  moderation_reason: z.string().nullable(),
});
export type ManuscriptFlaggedEvent = z.infer<typeof manuscriptFlaggedEvent>;

/** A staff opening as the author sees it (reader page and dashboard). */
export const staffOpening = z.object({ opened: z.string() });
export type StaffOpening = z.infer<typeof staffOpening>;
