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

/**
 * questionnaireState of several users for one manuscript (one query, for join storms): each
 * user id maps to their state; a manuscript without a questionnaire answers 'none' for all.
 */
export async function questionnaireStatesOfUsers(
  db: Executor,
  manuscriptId: number,
  userIds: number[],
): Promise<(userId: number | null) => QuestionnaireState> {
  const rows = await db
    .select({
      surveyId: schema.surveys.id,
      userId: schema.surveyAnswers.userId,
      id: schema.surveyAnswers.id,
      approvedAt: schema.surveyAnswers.approvedAt,
    })
    .from(schema.surveys)
    .leftJoin(
      schema.surveyAnswers,
      and(
        eq(schema.surveyAnswers.surveyId, schema.surveys.id),
        // No ids: the join matches nobody (logged-out viewers have answered nothing).
        inArray(schema.surveyAnswers.userId, userIds.length > 0 ? userIds : [-1]),
      ),
    )
    .where(
      and(
        eq(schema.surveys.manuscriptId, manuscriptId),
        eq(schema.surveys.surveyType, 'questionaire'),
      ),
    );
  if (rows.length === 0) return () => 'none';
  const answered = new Map<number, QuestionnaireState>();
  for (const row of rows) if (row.userId !== null) answered.set(row.userId, stateOf(row));
  return (userId) => (userId === null ? 'unanswered' : (answered.get(userId) ?? 'unanswered'));
}
