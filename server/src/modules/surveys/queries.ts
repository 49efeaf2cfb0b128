import { and, eq } from 'drizzle-orm';
import type { SurveyType } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';

export type SurveyRow = typeof schema.surveys.$inferSelect;
export type SurveyAnswerRow = typeof schema.surveyAnswers.$inferSelect;

/** The manuscript's survey of this type, or null. */
export async function findSurvey(
  db: Executor,
  manuscriptId: number,
  surveyType: SurveyType,
): Promise<SurveyRow | null> {
  const [row] = await db
    .select()
    .from(schema.surveys)
    .where(
      and(eq(schema.surveys.manuscriptId, manuscriptId), eq(schema.surveys.surveyType, surveyType)),
    );
  return row ?? null;
}

/** The user's answer to a survey, or null. */
export async function findAnswer(
  db: Executor,
  surveyId: number,
  userId: number,
): Promise<SurveyAnswerRow | null> {
  const [row] = await db
    .select()
    .from(schema.surveyAnswers)
    .where(
      and(eq(schema.surveyAnswers.surveyId, surveyId), eq(schema.surveyAnswers.userId, userId)),
    );
  return row ?? null;
}
