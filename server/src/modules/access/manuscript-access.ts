import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db/index.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { GRANTING_STATUSES } from './grants.ts';
import type { ReaderAccess } from './policy.ts';

/** A reader's own facts about a manuscript: their grant and where they stand with its questionnaire. */
export type ReaderFacts = Pick<ReaderAccess, 'granted' | 'questionnaire'>;

/**
 * A reader's access from their facts, as loadReaderAccess answers for a reader (not the author,
 * not staff, whose open reports these statements do not read).
 */
export const readerAccessOf = (
  viewer: { certified18At: Date | null } | null,
  facts: ReaderFacts,
): ReaderAccess => ({ ...facts, certified18: viewer?.certified18At != null, openReport: false });

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

/**
 * A manuscript row with the facts of many readers, in one statement (a join storm's viewers of
 * one manuscript): each user id maps to their facts; null stands for a logged-out viewer.
 * Null when the manuscript does not exist.
 */
export async function manuscriptWithReaders(
  db: Db,
  id: number,
  userIds: number[],
): Promise<{ manuscript: ManuscriptRow; factsOf: (userId: number | null) => ReaderFacts } | null> {
  const { invites, manuscripts, surveys, surveyAnswers } = schema;
  // No ids: -1 matches nobody (a logged-out viewer holds no grant and answered nothing).
  const ids = userIds.length > 0 ? userIds : [-1];
  const [row] = await db
    .select({
      manuscript: getTableColumns(manuscripts),
      grantedIds: sql<
        number[] | null
      >`(select json_agg(${invites.invitedUserId}) from ${invites} where ${and(
        eq(invites.manuscriptId, manuscripts.id),
        inArray(invites.invitedUserId, ids),
        inArray(invites.status, [...GRANTING_STATUSES]),
      )})`,
      surveyId: sql<number | null>`(select ${surveys.id} from ${surveys} where ${and(
        eq(surveys.manuscriptId, manuscripts.id),
        eq(surveys.surveyType, 'questionaire'),
      )})`,
      answers: sql<Array<
        [number, boolean]
      > | null>`(select json_agg(json_build_array(${surveyAnswers.userId}, ${surveyAnswers.approvedAt} is not null)) from ${surveyAnswers} inner join ${surveys} on ${eq(
        surveys.id,
        surveyAnswers.surveyId,
      )} where ${and(
        eq(surveys.manuscriptId, manuscripts.id),
        eq(surveys.surveyType, 'questionaire'),
        inArray(surveyAnswers.userId, ids),
      )})`,
    })
    .from(manuscripts)
    .where(eq(manuscripts.id, id));
  if (!row) return null;
  const granted = new Set(row.grantedIds ?? []);
  const approved = new Map(row.answers ?? []);
  const factsOf = (userId: number | null): ReaderFacts => {
    const answer = userId === null ? undefined : approved.get(userId);
    return {
      granted: userId !== null && granted.has(userId),
      questionnaire:
        row.surveyId === null
          ? 'none'
          : answer === undefined
            ? 'unanswered'
            : answer
              ? 'approved'
              : 'pending',
    };
  };
  return { manuscript: row.manuscript, factsOf };
}
