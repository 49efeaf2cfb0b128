import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  READ_GATE_MESSAGES,
  surveyAnswerListQuery,
  type Survey,
  type SurveyAnswerListQuery,
  type SurveyAnswer,
  type SurveyAnswerBody,
  type SurveyResponsesResponse,
  type SurveySubmitResponse,
  type SurveyType,
} from '@margins/common';
import type { z } from 'zod';
import type { surveyBody } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import type { StoredQuestion } from '../../db/schema-access.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/http-errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { isOwner, readGate, readRefusal, type ReaderAccess } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript, presentOne } from '../manuscripts/queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { queueNotification, wakeMailer } from '../notifications/service.ts';
import { readerNeedsApprovalMail } from '../notifications/templates.ts';
import { can, type SurveyAction } from './policy.ts';
import { presentAnswer, presentSurvey } from './presenter.ts';
import { pageAnswerRows } from './answer-list.ts';
import { findSurvey, type SurveyAnswerRow, type SurveyRow } from './queries.ts';
import { checkAnswers, passesAutoApproval, scoreAnswers } from './scoring.ts';

const NO_SURVEY = 'This manuscript has no such survey.';
export const ANSWERS_FINAL = 'Your answers were already submitted; they cannot be changed.';
export const NOT_YOUR_ANSWERS = 'You can only submit your own answers.';
export const AUTHOR_ANSWERS = 'Authors do not answer their own surveys.';
export const ONLY_QUESTIONNAIRE = 'Only questionnaire answers are approved.';
const NO_ANSWER = 'No such answer.';

type SurveyValues = z.output<typeof surveyBody>;

/**
 * The manuscript and the viewer's access, when the policy allows the action: 404 when the
 * viewer may not know the manuscript exists, 403 (with the gate's sentence when one applies)
 * when they may but not this.
 */
async function authorizeSurvey(
  ctx: AppContext,
  viewer: UserRow,
  manuscriptId: number,
  action: SurveyAction,
  surveyType: SurveyType,
  answered: (access: ReaderAccess) => boolean = () => false,
): Promise<{ manuscript: ManuscriptRow; access: ReaderAccess }> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript) throw notFound();
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  if (readRefusal(viewer, manuscript, access)) throw notFound();
  if (!isOwner(viewer, manuscript) && answered(access)) throw conflict(ANSWERS_FINAL);
  if (!can(viewer, action, surveyType, manuscript, access)) {
    if (action === 'answer' && isOwner(viewer, manuscript)) throw forbidden(AUTHOR_ANSWERS);
    const gate = readGate(viewer, manuscript, access);
    throw forbidden(gate && action === 'answer' ? READ_GATE_MESSAGES[gate] : undefined);
  }
  return { manuscript, access };
}

/** GET /manuscript/{id}/survey/{type}: the author's copy or the readers' (404 = none). */
export async function getSurvey(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
  surveyType: SurveyType,
): Promise<Survey> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript) throw notFound(NO_SURVEY);
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  const refusal = readRefusal(viewer, manuscript, access);
  if (refusal) throw refusal === 'login' ? unauthorized() : notFound(NO_SURVEY);
  const survey = await findSurvey(ctx.db, manuscriptId, surveyType);
  if (!survey) throw notFound(NO_SURVEY);
  if (!can(viewer, 'view', surveyType, manuscript, access)) {
    const gate = readGate(viewer, manuscript, access);
    throw forbidden(gate ? READ_GATE_MESSAGES[gate] : undefined);
  }
  return presentSurvey(survey, isOwner(viewer, manuscript) ? 'author' : 'reader');
}

/** The stored form of the author's questions. */
function storedQuestions(questions: SurveyValues['questions']): Record<string, StoredQuestion> {
  return Object.fromEntries(
    Object.entries(questions).map(([id, question]) => [
      id,
      {
        question: question.question,
        questionType: question.questionType,
        order: question.order,
        allowComments: question.allowComments,
        choices:
          question.questionType === 'shortAnswer'
            ? []
            : question.choices.map((choice) => ({
                choiceId: choice.choiceId,
                choice: choice.choice,
                correctChoice: choice.correctChoice,
              })),
      },
    ]),
  );
}

/**
 * POST /manuscript/survey (author): creates or replaces the survey of that type. Answers
 * already given are kept (with their score). Auto-approval is a questionnaire setting only.
 */
export async function saveSurvey(
  ctx: AppContext,
  user: UserRow,
  body: SurveyValues,
): Promise<Survey> {
  await authorizeSurvey(ctx, user, body.manuscript_id, 'manage', body.surveyType);
  const isQuestionnaire = body.surveyType === 'questionaire';
  const values = {
    questions: storedQuestions(body.questions),
    autoApprove: isQuestionnaire && body.autoApprove,
    autoApprovePercent: body.autoApprovePercent,
  };
  const row = await ctx.events.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.surveys)
      .values({ manuscriptId: body.manuscript_id, surveyType: body.surveyType, ...values })
      .onConflictDoUpdate({
        target: [schema.surveys.manuscriptId, schema.surveys.surveyType],
        set: { ...values, updatedAt: new Date() },
      })
      .returning();
    // A new questionnaire gates readers who have not passed it: they leave the room.
    if (isQuestionnaire) {
      await ctx.events.emit(tx, {
        type: 'manuscript.gate_changed',
        actorId: user.id,
        payload: { manuscriptId: body.manuscript_id },
      });
    }
    return row!;
  });
  return presentSurvey(row, 'author');
}

/** DELETE /manuscript/{id}/survey/{type} (author): removes it and its answers (lifts the gate). */
export async function deleteSurvey(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  surveyType: SurveyType,
): Promise<void> {
  await authorizeSurvey(ctx, user, manuscriptId, 'manage', surveyType);
  const survey = await findSurvey(ctx.db, manuscriptId, surveyType);
  if (!survey) throw notFound(NO_SURVEY);
  await ctx.db.delete(schema.surveys).where(eq(schema.surveys.id, survey.id));
}

/**
 * POST /manuscript/{id}/survey/{type}: the caller's answers, final once stored (409 after).
 * A questionnaire answer is scored; reaching the pass mark with auto-approval on (and the
 * manuscript not requiring the author's approval) approves it at once. Mails go after commit.
 */
export async function submitAnswers(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  surveyType: SurveyType,
  body: SurveyAnswerBody,
): Promise<SurveySubmitResponse> {
  if (body.user_id !== user.id) throw forbidden(NOT_YOUR_ANSWERS);
  const survey = await findSurvey(ctx.db, manuscriptId, surveyType);
  const { manuscript } = await authorizeSurvey(
    ctx,
    user,
    manuscriptId,
    'answer',
    surveyType,
    // Answering twice is a conflict, whatever the gate says now.
    (access) =>
      surveyType === 'questionaire' &&
      (access.questionnaire === 'pending' || access.questionnaire === 'approved'),
  );
  if (!survey) throw notFound(NO_SURVEY);
  const checked = checkAnswers(survey.questions, body.answers);
  if (checked.errors) throw badRequest(checked.errors);
  const isQuestionnaire = surveyType === 'questionaire';
  const score = isQuestionnaire ? scoreAnswers(survey.questions, checked.answers) : null;
  const approved =
    isQuestionnaire && !manuscript.approvalsRequired && passesAutoApproval(survey, score);
  const row = await ctx.events
    .transaction(async (tx) => {
      const [inserted] = await tx
        .insert(schema.surveyAnswers)
        .values({
          surveyId: survey.id,
          userId: user.id,
          answers: checked.answers,
          score,
          approvedAt: approved ? new Date() : null,
        })
        .returning();
      if (approved) {
        await ctx.events.emit(tx, {
          type: 'access.granted',
          actorId: user.id,
          payload: { manuscriptId: manuscript.id, userId: user.id, via: 'questionnaire' },
          rows: { reader: user, manuscript },
        });
      } else if (isQuestionnaire) {
        const [author] = await tx
          .select()
          .from(schema.users)
          .where(eq(schema.users.id, manuscript.userId));
        await queueNotification(
          ctx,
          tx,
          author!,
          'reader_needs_approval',
          readerNeedsApprovalMail(ctx.config.publicUrl, {
            to: author!,
            reader: user,
            title: manuscript.title,
            manuscriptId,
            reason: 'questionnaire',
          }),
        );
      }
      return inserted!;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw conflict(ANSWERS_FINAL);
      throw error;
    });
  wakeMailer(ctx);
  return {
    id: row.id,
    status: !isQuestionnaire ? 'submitted' : approved ? 'approved' : 'awaiting_approval',
    approved,
  };
}

/** The answers to a survey with their readers, newest first. */
async function presentAnswers(
  ctx: AppContext,
  survey: SurveyRow,
  rows: SurveyAnswerRow[],
): Promise<SurveyAnswer[]> {
  if (rows.length === 0) return [];
  const users = await ctx.db
    .select()
    .from(schema.users)
    .where(inArray(schema.users.id, [...new Set(rows.map((row) => row.userId))]));
  const userById = new Map(users.map((row) => [row.id, row]));
  return rows.map((row) => presentAnswer(row, survey, userById.get(row.userId)!));
}

/** GET /manuscript/{id}/survey/{type}/responses (author): the survey and every answer. */
export async function listResponses(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
  surveyType: SurveyType,
  query: SurveyAnswerListQuery = surveyAnswerListQuery.parse({}),
): Promise<SurveyResponsesResponse> {
  const { manuscript } = await authorizeSurvey(ctx, user, manuscriptId, 'see_answers', surveyType);
  const survey = await findSurvey(ctx.db, manuscriptId, surveyType);
  if (!survey) throw notFound(NO_SURVEY);
  const { items, total, page } = await pageAnswerRows(ctx.db, survey.id, query);
  return {
    manuscript: await presentOne(ctx.db, manuscript),
    survey: presentSurvey(survey, 'author'),
    answers: await presentAnswers(ctx, survey, items),
    total,
    page,
  };
}

/**
 * GET /manuscript/survey/answer/{id}/approve (author): approves a questionnaire answer, which
 * opens the text to its reader; mails them (after commit). Approving twice changes nothing.
 */
export async function approveAnswer(
  ctx: AppContext,
  user: UserRow,
  answerId: number,
): Promise<SurveyAnswer> {
  const [found] = await ctx.db
    .select({ answer: schema.surveyAnswers, survey: schema.surveys })
    .from(schema.surveyAnswers)
    .innerJoin(schema.surveys, eq(schema.surveys.id, schema.surveyAnswers.surveyId))
    .where(eq(schema.surveyAnswers.id, answerId));
  if (!found) throw notFound(NO_ANSWER);
  const { manuscript } = await authorizeSurvey(
    ctx,
    user,
    found.survey.manuscriptId,
    'approve',
    found.survey.surveyType,
  );
  if (found.survey.surveyType !== 'questionaire') throw badRequest({}, ONLY_QUESTIONNAIRE);
  const answer = await ctx.events.transaction(async (tx) => {
    const [approved] = await tx
      .update(schema.surveyAnswers)
      .set({ approvedAt: new Date(), approvedById: user.id })
      .where(and(eq(schema.surveyAnswers.id, answerId), isNull(schema.surveyAnswers.approvedAt)))
      .returning();
    // Approved already (by the score or earlier): nothing changes, no second mail.
    if (!approved) return found.answer;
    const [reader] = await tx
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, approved!.userId));
    await ctx.events.emit(tx, {
      type: 'access.granted',
      actorId: user.id,
      payload: { manuscriptId: manuscript.id, userId: reader!.id, via: 'questionnaire' },
      rows: { reader: reader!, manuscript },
    });
    return approved!;
  });
  const [presented] = await presentAnswers(ctx, found.survey, [answer]);
  return presented!;
}
