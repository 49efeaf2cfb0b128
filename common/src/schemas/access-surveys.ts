// Surveys: the questionnaire (spelled so) that gates reading, and the feedback survey.
import { z } from 'zod';
import { AUTO_APPROVE_PERCENT_DEFAULT, LIST_MAX_PER_PAGE, QUESTION_TYPES } from '../constants.ts';
import { listPageFields, listQuery, queryBoolean } from './list.ts';
import { databaseId, formBoolean } from './fields.ts';
import { manuscript } from './manuscript.ts';
import { publicUser } from './user.ts';

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
  user_id: databaseId,
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
/** GET …/survey/{type}/responses (JSON) query: the list contract. */
export const surveyAnswerListQuery = listQuery({
  sort: ['created', 'score'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  filters: {
    /** Only approved (true) or only waiting (false) answers. */
    approved: queryBoolean.optional(),
  },
  defaultPerPage: LIST_MAX_PER_PAGE,
});
export type SurveyAnswerListQuery = z.output<typeof surveyAnswerListQuery>;

export const surveyResponsesResponse = z.object({
  /** The manuscript (for the page's heading). */
  manuscript,
  /** The survey, with the right answers. */
  survey,
  /** Every reader's answers, newest first. */
  answers: z.array(surveyAnswer),
  ...listPageFields,
});
export type SurveyResponsesResponse = z.infer<typeof surveyResponsesResponse>;
