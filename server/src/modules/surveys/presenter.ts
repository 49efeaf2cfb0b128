import type { Survey, SurveyAnswer, SurveyQuestion } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { presentPublicUser } from '../users/presenter.ts';
import type { SurveyAnswerRow, SurveyRow } from './queries.ts';

/** Who a survey is sent to: the author gets the right answers, readers never do. */
type SurveyAudience = 'author' | 'reader';

/** A survey for its author (with correctChoice) or for readers (without). */
export function presentSurvey(row: SurveyRow, audience: SurveyAudience): Survey {
  // Question ids are the author's (`__proto__` fits SURVEY_KEY): a null-prototype map.
  const questions = Object.create(null) as Record<string, SurveyQuestion>;
  for (const [id, question] of Object.entries(row.questions)) {
    questions[id] = {
      question: question.question,
      questionType: question.questionType,
      order: question.order,
      allowComments: question.allowComments,
      choices: question.choices.map((choice) =>
        audience === 'author'
          ? {
              choiceId: choice.choiceId,
              choice: choice.choice,
              correctChoice: choice.correctChoice,
            }
          : { choiceId: choice.choiceId, choice: choice.choice },
      ),
    };
  }
  return {
    id: row.id,
    manuscript_id: row.manuscriptId,
    surveyType: row.surveyType,
    questions,
    autoApprove: row.autoApprove,
    autoApprovePercent: row.autoApprovePercent,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
  };
}

/** A reader's answers as the author sees them (the reader's public profile, never an e-mail). */
export function presentAnswer(
  row: SurveyAnswerRow,
  survey: SurveyRow,
  user: UserRow,
): SurveyAnswer {
  return {
    id: row.id,
    survey_id: survey.id,
    survey_type: survey.surveyType,
    manuscript_id: survey.manuscriptId,
    user: presentPublicUser(user),
    answers: row.answers,
    score: row.score,
    approved: row.approvedAt !== null,
    auto_approved: row.approvedAt !== null && row.approvedById === null,
    approved_at: row.approvedAt?.toISOString() ?? null,
    created: row.createdAt.toISOString(),
  };
}
