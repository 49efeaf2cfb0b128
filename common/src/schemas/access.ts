// Who may read: the access schemas (invites, reads, surveys) and the page data they extend.
import { z } from 'zod';
import { staffOpening } from './moderation.ts';
import { bookmark } from './access-reads.ts';
import { invite } from './access-invites.ts';
import { survey } from './access-surveys.ts';
import { dashboardPageData, readerResponse } from './manuscript.ts';

/**
 * Who may read (issue 5): invites, share links, access requests, reads (bookmarks) with
 * reading progress, the questionnaire gate and feedback surveys. Every request and response
 * of those routes; the reader's and the dashboard's page data extend the manuscript ones.
 */

export * from './access-invites.ts';
export * from './access-reads.ts';
export * from './access-surveys.ts';

// ---------------------------------------------------------------------------------------------
// Page data

/** What still stands between a (non-author, non-staff) reader and the text. */
export const READ_GATES = ['mature', 'questionnaire', 'awaiting_approval'] as const;
export type ReadGate = (typeof READ_GATES)[number];

/**
 * GET /manuscript/document/reader/{id} (page `reader` data and JSON): the manuscript's own
 * fields plus the access state. When `gate` is set, `html` is "" and `toc` is [], and the
 * comments, images and socket room are refused too.
 */
export const readerPageResponse = readerResponse.extend({
  /**
   * mature (certify 18+ first: GET /profile/certify18, then reload) | questionnaire (answer
   * `questionnaire`) | awaiting_approval (answered; the author has not approved yet) | null.
   */
  gate: z.enum(READ_GATES).nullable(),
  /** The questionnaire: the author's copy (with right answers) or the readers' copy; or null. */
  questionnaire: survey.nullable(),
  /** The feedback survey, or null (readers see it only once past the gate). */
  feedback_survey: survey.nullable(),
  /** The viewer already submitted the feedback survey (show the thanks message). */
  feedback_submitted: z.boolean(),
  /** The viewer's read of this manuscript (the bookmark control), or null. */
  bookmark: bookmark.nullable(),
  /** The author only: every invite, link and request of this manuscript (share modal); else []. */
  invites: z.array(invite),
  /** The viewer's pending invites to this manuscript (accept or reject from the reader). */
  currentUserInvites: z.array(invite),
  /** The author only: when staff opened it while reviewing a report, newest first; else []. */
  staff_openings: z.array(staffOpening).optional(),
});
export type ReaderPageResponse = z.infer<typeof readerPageResponse>;

/** Page `data` of /dashboard: the manuscripts' data plus reads and pending invites. */
export const dashboardPageDataWithAccess = dashboardPageData.extend({
  /** The user's reads they may still open, with progress, newest first. */
  bookmarks: z.array(bookmark),
  /** The user's pending invites, newest first. */
  invites: z.array(invite),
});
export type DashboardPageDataWithAccess = z.infer<typeof dashboardPageDataWithAccess>;

/** The 403 `error` of a text-serving call (comments, images, reads …) refused by a gate. */
export const READ_GATE_MESSAGES: Record<ReadGate, string> = {
  mature: 'Confirm you are 18 or over to read this manuscript.',
  questionnaire: 'Answer the questionnaire to read this manuscript.',
  awaiting_approval: 'Your answers are awaiting the author’s approval.',
};

/** GET /share/{code} with Accept: application/json when the link leads on: go there. */
export const shareRedirectResponse = z.object({
  /** A path inside the app: the reader, or the login page that comes back here. */
  redirect: z.string(),
});
export type ShareRedirectResponse = z.infer<typeof shareRedirectResponse>;
