import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { SurveyAnswerListQuery } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { runList, type ListColumns, type ListPage } from '../../lib/list-query.ts';
import type { SurveyAnswerRow } from './queries.ts';

const answers = schema.surveyAnswers;

/** The fields of GET …/survey/{type}/responses and the columns they read. */
const ANSWER_COLUMNS: ListColumns<SurveyAnswerListQuery> = {
  // Unscored answers sort below every score.
  sort: { created: answers.createdAt, score: sql`coalesce(${answers.score}, -1)` },
  tieBreaker: answers.id,
  filters: {
    approved: (approved) => (approved ? isNotNull(answers.approvedAt) : isNull(answers.approvedAt)),
  },
};

/** One page of a survey's answers (the author's answers page and its JSON). */
export async function pageAnswerRows(
  db: Executor,
  surveyId: number,
  query: SurveyAnswerListQuery,
): Promise<ListPage<SurveyAnswerRow>> {
  const ofSurvey = eq(answers.surveyId, surveyId);
  return runList(query, ANSWER_COLUMNS, {
    count: async (where) => {
      const [row] = await db.select({ total: count() }).from(answers).where(and(ofSurvey, where));
      return row?.total ?? 0;
    },
    rows: ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(answers)
        .where(and(ofSurvey, where))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
  });
}
