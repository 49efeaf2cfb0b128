import { and, eq, inArray } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { ReaderAccess } from './policy.ts';

/** Where a reader stands with a manuscript's questionnaire (the second gate of readGate). */
export type QuestionnaireState = ReaderAccess['questionnaire'];

const stateOf = (answer: { id: number | null; approvedAt: Date | null }): QuestionnaireState =>
  answer.id === null ? 'unanswered' : answer.approvedAt ? 'approved' : 'pending';

/** Where the user stands with the manuscript's questionnaire (one query); null user: logged out. */
export async function questionnaireState(
  db: Executor,
  userId: number | null,
  manuscriptId: number,
): Promise<QuestionnaireState> {
  const states = await questionnaireStates(db, userId, [manuscriptId]);
  return states.get(manuscriptId) ?? 'none';
}

/** questionnaireState for several manuscripts at once (lists); missing ids have none. */
export async function questionnaireStates(
  db: Executor,
  userId: number | null,
  manuscriptIds: number[],
): Promise<Map<number, QuestionnaireState>> {
  if (manuscriptIds.length === 0) return new Map();
  const rows = await db
    .select({
      manuscriptId: schema.surveys.manuscriptId,
      id: schema.surveyAnswers.id,
      approvedAt: schema.surveyAnswers.approvedAt,
    })
    .from(schema.surveys)
    .leftJoin(
      schema.surveyAnswers,
      and(
        eq(schema.surveyAnswers.surveyId, schema.surveys.id),
        // -1 matches no user: a logged-out viewer has answered nothing.
        eq(schema.surveyAnswers.userId, userId ?? -1),
      ),
    )
    .where(
      and(
        inArray(schema.surveys.manuscriptId, manuscriptIds),
        eq(schema.surveys.surveyType, 'questionaire'),
      ),
    );
  return new Map(rows.map((row) => [row.manuscriptId, stateOf(row)]));
}
