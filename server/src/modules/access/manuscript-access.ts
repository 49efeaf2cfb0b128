import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db/index.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { GRANTING_STATUSES } from './grants.ts';
import type { ReaderAccess } from './policy.ts';

/** A reader's own facts about a manuscript: their grant and where they stand with its questionnaire. */
export type ReaderFacts = Pick<ReaderAccess, 'granted' | 'questionnaire'>;

const viewerId = sql.placeholder('viewerId');
const manuscriptId = sql.placeholder('manuscriptId');

/**
 * A manuscript row with one reader's facts, in one prepared statement (findManuscript, hasGrant
 * and questionnaireState in one round): what a socket write checks on every event, fresh each
 * time. The viewer id -1 stands for a logged-out viewer (no grant, nothing answered).
 */
export function prepareManuscriptWithFacts(db: Db, name: string) {
  const { invites, manuscripts, surveys, surveyAnswers } = schema;
  const granted = sql<boolean>`exists (select 1 from ${invites} where ${and(
    eq(invites.manuscriptId, manuscripts.id),
    eq(invites.invitedUserId, viewerId),
    inArray(invites.status, [...GRANTING_STATUSES]),
  )})`;
  const query = db
    .select({
      manuscript: getTableColumns(manuscripts),
      granted,
      surveyId: surveys.id,
      answerId: surveyAnswers.id,
      approvedAt: surveyAnswers.approvedAt,
    })
    .from(manuscripts)
    .leftJoin(
      surveys,
      and(eq(surveys.manuscriptId, manuscripts.id), eq(surveys.surveyType, 'questionaire')),
    )
    .leftJoin(
      surveyAnswers,
      and(eq(surveyAnswers.surveyId, surveys.id), eq(surveyAnswers.userId, viewerId)),
    )
    .where(eq(manuscripts.id, manuscriptId))
    .prepare(name);
  return async (
    viewer: number | null,
    id: number,
  ): Promise<{ manuscript: ManuscriptRow; facts: ReaderFacts } | null> => {
    const [row] = await query.execute({ viewerId: viewer ?? -1, manuscriptId: id });
    if (!row) return null;
    const questionnaire: ReaderFacts['questionnaire'] =
      row.surveyId === null
        ? 'none'
        : row.answerId === null
          ? 'unanswered'
          : row.approvedAt
            ? 'approved'
            : 'pending';
    return { manuscript: row.manuscript, facts: { granted: row.granted, questionnaire } };
  };
}
