import { z } from 'zod';
import { AUTO_APPROVE_PERCENT_DEFAULT, INVITE_TYPES, QUESTION_TYPES } from '../constants.ts';
import { dashboardPageData, manuscript, readerResponse } from './manuscript.ts';
import { publicUser } from './user.ts';

/**
 * Who may read (issue 5): invites, share links, access requests, reads (bookmarks) with
 * reading progress, the questionnaire gate and feedback surveys. Every request and response
 * of those routes; the reader's and the dashboard's page data extend the manuscript ones.
 */

/** A database id in a path: a positive 32-bit integer. */
const databaseId = z.coerce.number().int().positive().max(2_147_483_647);

/** A checkbox as JSON (true/false) or as a form field ("true"/"false", "on"/"off", "1"/"0"). */
const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])], {
    error: 'Choose yes or no.',
  })
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

// ---------------------------------------------------------------------------------------------
// Invites, share links and access requests

/** How a reader relates to a manuscript (see the `invites` table). */
export const INVITE_KINDS = ['user', 'email', 'link', 'request', 'redemption'] as const;
export type InviteKind = (typeof INVITE_KINDS)[number];
/** pending/accepted/rejected: invites; requested/approved/refused: access requests. */
export const INVITE_STATUSES = [
  'pending',
  'accepted',
  'rejected',
  'requested',
  'approved',
  'refused',
] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** The people on an invite; `email` only for the author who sent it (never anyone else). */
export const inviteUser = z.object({
  /** The user's id. */
  id: z.number(),
  /** The user's display name. */
  display_name: z.string(),
  /** The user's handle, or null before sign-up is complete. */
  handle: z.string().nullable(),
  /** The account's e-mail: only on invites the viewer sent, otherwise null. */
  email: z.string().nullable(),
});
export type InviteUser = z.infer<typeof inviteUser>;

/** An invite as its author or its invitee sees it (SPEC §3 Invite). */
export const invite = z.object({
  /** The invite's id (for DELETE /manuscript/invite/{id}, accept and reject). */
  id: z.number(),
  /** user | email | link | request | redemption (a reader who came through a link). */
  kind: z.enum(INVITE_KINDS),
  /** The manuscript's invite type when it was made: private | restricted | logged_in | public. */
  invite_type: z.enum(INVITE_TYPES),
  /** pending | accepted | rejected (invites); requested | approved | refused (requests). */
  status: z.enum(INVITE_STATUSES),
  /** The absolute share link (/share/{code}); only for the manuscript's author, else null. */
  link: z.string().nullable(),
  /** The invited, redeeming or requesting reader; null for links and unclaimed e-mail invites. */
  user: inviteUser.nullable(),
  /** The address an e-mail invite went to: only for the author who sent it, else null. */
  email: z.string().nullable(),
  /** The link's code and whether a one-time link was used; only for the author, else null. */
  invite_code: z.object({ code: z.string(), redeemed: z.boolean() }).nullable(),
  /** A one-time link: only its first user gets in. */
  one_time: z.boolean(),
  /** When a one-time link was used (ISO-8601), or null. */
  redeemed_at: z.string().nullable(),
  /** The manuscript invited to: enough for the dashboard's pending-invite list. */
  manuscript: z.object({
    /** The manuscript's id (reader: /manuscript/document/reader/{id}). */
    id: z.number(),
    /** Its title. */
    title: z.string(),
    /** Its author's public name. */
    author: z.object({ id: z.number(), display_name: z.string(), handle: z.string().nullable() }),
  }),
  /** ISO-8601 creation time. */
  created: z.string(),
});
export type Invite = z.infer<typeof invite>;

/** 200 of every call that answers one invite. */
export const inviteResponse = z.object({ invite });
export type InviteResponse = z.infer<typeof inviteResponse>;

/** GET /user/current/invites (JSON): the caller's pending invites, newest first. */
export const inviteListResponse = z.object({ invites: z.array(invite) });
export type InviteListResponse = z.infer<typeof inviteListResponse>;

/** GET /manuscript/{id}/invites (author): every invite, link, redemption and request. */
export const manuscriptInvitesResponse = z.object({
  /** The manuscript's current invite type. */
  visibility: z.enum(INVITE_TYPES),
  /** Newest first. */
  invites: z.array(invite),
});
export type ManuscriptInvitesResponse = z.infer<typeof manuscriptInvitesResponse>;

/**
 * POST /manuscript/{id}/invite/user: a handle (a leading @ is ignored) or an e-mail address,
 * in either field; one of them must be given ("Enter a username or email address.").
 */
export const inviteByUserBody = z.object({
  /** A handle, or an e-mail address typed into the same box. */
  username: z.string().trim().max(254).optional(),
  /** An e-mail address. */
  email: z.string().trim().max(254).optional(),
});
export type InviteByUserBody = z.infer<typeof inviteByUserBody>;

/** POST /manuscript/{id}/invite/link: sets the manuscript's invite type and answers its link. */
export const inviteByLinkBody = z.object({
  /** The new invite type: private | restricted | logged_in | public. */
  access: z.enum(INVITE_TYPES, {
    error: 'Choose who may read it: private, restricted, logged_in or public.',
  }),
  /** The code of a link of this manuscript to reuse; a new one is made when absent or unknown. */
  code: z.string().trim().max(64).optional(),
  /** A one-time link (private only): a new link each time, only its first user gets in. */
  useInvite: formBoolean.optional().default(false),
});
export type InviteByLinkBody = z.input<typeof inviteByLinkBody>;

export const inviteIdParams = z.object({ invite_id: databaseId });
export const accessRequestParams = z.object({
  /** The manuscript. */
  manuscript_id: databaseId,
  /** The request (an invite of kind `request`). */
  request_id: databaseId,
  /** approve | refuse. */
  decision: z.enum(['approve', 'refuse']),
});
export const shareCodeParams = z.object({
  /** The code of a share link or a mailed invite. */
  code: z.string().min(1).max(64),
});

/** What the share-link landing page (page `share`) shows when it does not redirect. */
export const SHARE_STATES = [
  'invalid',
  'used',
  'not_yours',
  'unavailable',
  'request_access',
  'request_pending',
  'request_refused',
] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** Page `data` of GET /share/{code} (and its JSON answer) when it does not redirect. */
export const sharePageData = z.object({
  /**
   * invalid (404: no such link, or the manuscript is gone) | used (403: a one-time link
   * someone else used) | not_yours (403: an invite to another account) | unavailable (404:
   * the invite was rejected, or the link no longer fits the manuscript's invite type) |
   * request_access (restricted: offer POST /share/{code}/request) | request_pending |
   * request_refused.
   */
  state: z.enum(SHARE_STATES),
  /** The code in the URL. */
  code: z.string(),
  /** The sentence to show. */
  message: z.string(),
  /** The manuscript, when the visitor may know about it (restricted requests), else null. */
  manuscript: z
    .object({
      id: z.number(),
      title: z.string(),
      summary: z.string(),
      author: z.object({ id: z.number(), display_name: z.string(), handle: z.string().nullable() }),
    })
    .nullable(),
});
export type SharePageData = z.infer<typeof sharePageData>;

// ---------------------------------------------------------------------------------------------
// Reads (bookmarks) and reading progress

/** How far the reader got (the furthest point reached). */
export const readingProgress = z.object({
  /** The furthest block (paragraph) index reached, or null before any progress. */
  block_idx: z.number().nullable(),
  /** The furthest percentage (0–100) of the text reached, or null. */
  percent: z.number().nullable(),
  /** When progress last moved (ISO-8601), or null. */
  updated: z.string().nullable(),
});
export type ReadingProgress = z.infer<typeof readingProgress>;

/** A read: a bookmarked manuscript with the reader's progress. */
export const bookmark = z.object({
  /** The bookmark's id. */
  id: z.number(),
  /** The bookmarked manuscript's id (the key of the bookmark calls). */
  manuscript_id: z.number(),
  /** ISO-8601 time it was added. */
  created: z.string(),
  /** How far the reader got. */
  progress: readingProgress,
  /** The manuscript as a card (SPEC §3). */
  manuscript,
});
export type Bookmark = z.infer<typeof bookmark>;

/** POST /bookmark/{id}, POST /invite/{id}/accept, POST /bookmark/{id}/progress. */
export const bookmarkResponse = z.object({ bookmark });
export type BookmarkResponse = z.infer<typeof bookmarkResponse>;

/** GET /user/current/bookmarks (JSON): the caller's reads they may still open, newest first. */
export const bookmarkListResponse = z.object({ bookmarks: z.array(bookmark) });
export type BookmarkListResponse = z.infer<typeof bookmarkListResponse>;

/** POST /bookmark/{id}/progress: where the reader is; the furthest point is kept. */
export const readingProgressBody = z.object({
  /** The index of the block (paragraph) in view, 0-based. */
  block_idx: z.coerce.number().int().min(0).max(10_000_000),
  /** How much of the text is behind the reader, 0–100. */
  percent: z.coerce.number().min(0).max(100),
});
export type ReadingProgressBody = z.infer<typeof readingProgressBody>;

export const bookmarkParams = z.object({ manuscript_id: databaseId });

// ---------------------------------------------------------------------------------------------
// Surveys: the questionnaire (spelled so) and the feedback survey

export const SURVEY_TYPES = ['questionaire', 'feedback'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];
/** Question and choice ids: letters, digits, "_" and "-". */
const SURVEY_KEY = /^[A-Za-z0-9_-]{1,64}$/;
export const SURVEY_MAX_QUESTIONS = 100;
export const SURVEY_MAX_CHOICES = 50;

/** A choice of a multipleChoice or multipleAnswer question (as the author sends it). */
export const surveyChoiceInput = z.object({
  /** Unique within its question. */
  choiceId: z.string().regex(SURVEY_KEY, 'Choice ids are 1–64 letters, digits, _ or -.'),
  /** The text shown. */
  choice: z.string().trim().min(1, 'Enter the choice.').max(500, 'Use at most 500 characters.'),
  /** A right answer (questionnaire scoring); sent back to the author only. */
  correctChoice: z.boolean().optional().default(false),
});

/** A question (SPEC §3), keyed by its id in `questions` (as the author sends it). */
export const surveyQuestionInput = z.object({
  /** The question's text. */
  question: z
    .string()
    .trim()
    .min(1, 'Enter the question.')
    .max(2000, 'Use at most 2000 characters.'),
  /** multipleChoice (one choice) | multipleAnswer (several) | shortAnswer (text). */
  questionType: z.enum(QUESTION_TYPES, {
    error: 'Choose multipleChoice, multipleAnswer or shortAnswer.',
  }),
  /** Position in the survey (ascending). */
  order: z.coerce.number().int().min(0).max(10_000),
  /** The reader may add a comment (answers key `comments-{questionId}`). */
  allowComments: z.boolean().optional().default(false),
  /** The choices of a choice question; none for shortAnswer. */
  choices: z.array(surveyChoiceInput).max(SURVEY_MAX_CHOICES).optional().default([]),
});
export type SurveyQuestionInput = z.input<typeof surveyQuestionInput>;

/** A choice as sent back. */
export const surveyChoice = z.object({
  /** Unique within its question. */
  choiceId: z.string(),
  /** The text shown. */
  choice: z.string(),
  /** A right answer: present in the author's copy only. */
  correctChoice: z.boolean().optional(),
});
export type SurveyChoice = z.infer<typeof surveyChoice>;

/** A question as sent back. */
export const surveyQuestion = z.object({
  /** The question's text. */
  question: z.string(),
  /** multipleChoice | multipleAnswer | shortAnswer. */
  questionType: z.enum(QUESTION_TYPES),
  /** Position in the survey (ascending). */
  order: z.number(),
  /** The reader may add a comment (answers key `comments-{questionId}`). */
  allowComments: z.boolean(),
  /** The choices ([] for shortAnswer). */
  choices: z.array(surveyChoice),
});
export type SurveyQuestion = z.infer<typeof surveyQuestion>;

/** Question id → question; the structural rules every survey must follow. */
const surveyQuestions = z
  .record(
    z.string().regex(SURVEY_KEY, 'Question ids are 1–64 letters, digits, _ or -.'),
    surveyQuestionInput,
  )
  .superRefine((questions, context) => {
    const entries = Object.entries(questions);
    if (entries.length === 0) context.addIssue({ code: 'custom', message: 'Add a question.' });
    if (entries.length > SURVEY_MAX_QUESTIONS) {
      context.addIssue({
        code: 'custom',
        message: `Use at most ${SURVEY_MAX_QUESTIONS} questions.`,
      });
    }
    for (const [id, question] of entries) {
      const fail = (message: string) =>
        context.addIssue({
          code: 'custom',
          path: [id],
          message: `${question.question}: ${message}`,
        });
      const ids = question.choices.map((choice) => choice.choiceId);
      if (new Set(ids).size !== ids.length) fail('two choices have the same id.');
      if (question.questionType === 'shortAnswer') {
        if (question.choices.length > 0) fail('a short answer takes no choices.');
        continue;
      }
      if (question.choices.length < 2) fail('give at least two choices.');
      const correct = question.choices.filter((choice) => choice.correctChoice).length;
      if (question.questionType === 'multipleChoice' && correct > 1) {
        fail('a multiple-choice question has one right answer at most.');
      }
    }
  });

/** POST /manuscript/survey (author): creates or replaces the manuscript's survey of this type. */
export const surveyBody = z.object({
  /** The author's manuscript. */
  manuscript_id: databaseId,
  /** questionaire (the reading gate) | feedback. */
  surveyType: z.enum(SURVEY_TYPES, { error: 'Choose questionaire or feedback.' }),
  /** Question id → question; at least one. */
  questions: surveyQuestions,
  /** Questionnaire only: approve an answer whose score reaches autoApprovePercent. */
  autoApprove: formBoolean.optional().default(false),
  /** Questionnaire only: the pass mark in percent (default 85). */
  autoApprovePercent: z.coerce
    .number()
    .int()
    .min(0, 'Use 0 to 100.')
    .max(100, 'Use 0 to 100.')
    .optional()
    .default(AUTO_APPROVE_PERCENT_DEFAULT),
});
export type SurveyBody = z.input<typeof surveyBody>;

/** A survey as sent: to the author with the right answers, to readers without them. */
export const survey = z.object({
  /** The survey's id. */
  id: z.number(),
  /** Its manuscript's id. */
  manuscript_id: z.number(),
  /** questionaire | feedback. */
  surveyType: z.enum(SURVEY_TYPES),
  /** Question id → question (`correctChoice` only in the author's copy). */
  questions: z.record(z.string(), surveyQuestion),
  /** Questionnaire: answers reaching autoApprovePercent are approved at once. */
  autoApprove: z.boolean(),
  /** The pass mark in percent. */
  autoApprovePercent: z.number(),
  /** ISO-8601 times. */
  created: z.string(),
  updated: z.string(),
});
export type Survey = z.infer<typeof survey>;

/** 200 of GET /manuscript/{id}/survey/{type} and POST /manuscript/survey. */
export const surveyResponse = z.object({ survey });
export type SurveyResponse = z.infer<typeof surveyResponse>;

export const surveyTypeParams = z.object({
  manuscript_id: databaseId,
  survey_type: z.enum(SURVEY_TYPES, { error: 'Not a survey type.' }),
});
export const surveyAnswerParams = z.object({ survey_answer_id: databaseId });

/**
 * Question id → the choiceId (multipleChoice), a list of choiceIds (multipleAnswer) or text
 * (shortAnswer); `comments-{questionId}` → text where the question allows comments.
 */
export const surveyAnswers = z.record(
  z.string().max(80),
  z.union([z.string().max(5000), z.array(z.string().max(64)).max(SURVEY_MAX_CHOICES)]),
);
export type SurveyAnswers = z.infer<typeof surveyAnswers>;

/** POST /manuscript/{id}/survey/{type}: the caller's answers, final once submitted. */
export const surveyAnswerBody = z.object({
  /** Must be the caller's own id. */
  user_id: z.coerce.number().int().positive(),
  /** The answers. */
  answers: surveyAnswers,
});
export type SurveyAnswerBody = z.infer<typeof surveyAnswerBody>;

/** A reader's answers as the author sees them (survey answers page). */
export const surveyAnswer = z.object({
  /** The answer's id (approve: GET /manuscript/survey/answer/{id}/approve). */
  id: z.number(),
  /** The survey's id. */
  survey_id: z.number(),
  /** questionaire | feedback. */
  survey_type: z.enum(SURVEY_TYPES),
  /** The manuscript's id. */
  manuscript_id: z.number(),
  /** Who answered (public profile; never the e-mail). */
  user: publicUser,
  /** The answers as submitted. */
  answers: surveyAnswers,
  /** Questionnaire: percent of scored questions answered right; null when nothing is scored. */
  score: z.number().nullable(),
  /** Questionnaire: approved (by the score or the author). */
  approved: z.boolean(),
  /** True when the score approved it. */
  auto_approved: z.boolean(),
  /** ISO-8601 approval time, or null. */
  approved_at: z.string().nullable(),
  /** ISO-8601 submission time. */
  created: z.string(),
});
export type SurveyAnswer = z.infer<typeof surveyAnswer>;

/** 200 of POST /manuscript/{id}/survey/{type}: what the reader's page does next. */
export const surveySubmitResponse = z.object({
  /** The stored answer's id. */
  id: z.number(),
  /** approved: reload into the text after 2 s; awaiting_approval; submitted (feedback: thanks). */
  status: z.enum(['approved', 'awaiting_approval', 'submitted']),
  /** Questionnaire answers only: approved at once. */
  approved: z.boolean(),
});
export type SurveySubmitResponse = z.infer<typeof surveySubmitResponse>;

/** 200 of GET /manuscript/survey/answer/{id}/approve. */
export const surveyAnswerResponse = z.object({ answer: surveyAnswer });
export type SurveyAnswerResponse = z.infer<typeof surveyAnswerResponse>;

/** GET /manuscript/{id}/survey/{type}/responses (JSON, and page `m-survey-answers` data). */
export const surveyResponsesResponse = z.object({
  /** The manuscript (for the page's heading). */
  manuscript,
  /** The survey, with the right answers. */
  survey,
  /** Every reader's answers, newest first. */
  answers: z.array(surveyAnswer),
});
export type SurveyResponsesResponse = z.infer<typeof surveyResponsesResponse>;

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
