import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import { grantOn } from './grants.ts';
import type { ReaderAccess } from './policy.ts';

/** A reader's own facts about a manuscript: their grant and where they stand with its questionnaire. */
export type ReaderFacts = Pick<ReaderAccess, 'granted' | 'questionnaire'>;

/** The viewer id that stands for a logged-out viewer: it holds no grant and answered nothing. */
const NOBODY = -1;

/** A list of ids as a set of rows for readerFactsRows (one array parameter, however many). */
export const idSet = (ids: readonly number[]): SQL =>
  sql`unnest(${`{${ids.join(',')}}`}::integer[])`;

/** One id (a value or a prepared statement's placeholder) as a set of one row. */
export const oneId = (id: Placeholder | number): SQL => sql`${id}::integer`;

/** A viewer's id in these statements (NOBODY for a logged-out viewer). */
export const viewerIdOf = (viewer: number | null): number => viewer ?? NOBODY;

/**
 * The reading facts of every viewer about every manuscript given, as rows (manuscript_id,
 * viewer_id, granted, questionnaire): the one place where a grant and the questionnaire state
 * are derived. loadReaderAccess runs it alone (readerFacts), the socket writes and join storms
 * inside their manuscript statement (manuscript-access.ts). `manuscriptIds` and `viewerIds`
 * are sets of rows: idSet(ids), or oneId(value or placeholder). One questionnaire per
 * manuscript, one invite row and one answer per reader (unique keys): each pair is one row.
 */
export function readerFactsRows(manuscriptIds: SQL, viewerIds: SQL): SQL {
  const { surveys, surveyAnswers } = schema;
  const manuscriptId = sql`pair_m.id`;
  const viewerId = sql`pair_v.id`;
  // Per pair, subqueries in the select list (each probes a unique index): joined as sets,
  // the planner hashes every answer of every survey, not knowing there is one survey here.
  return sql`select ${manuscriptId} as manuscript_id, ${viewerId} as viewer_id,
      ${grantOn(manuscriptId, viewerId)} as granted,
      case when ${surveys.id} is null then 'none'
        else coalesce((select case when ${surveyAnswers.approvedAt} is null then 'pending'
          else 'approved' end from ${surveyAnswers} where ${and(
            eq(surveyAnswers.surveyId, surveys.id),
            eq(surveyAnswers.userId, viewerId),
          )}), 'unanswered') end as questionnaire
    from (select ${manuscriptIds} as id) pair_m
    left join ${surveys} on ${and(
      eq(surveys.manuscriptId, manuscriptId),
      eq(surveys.surveyType, 'questionaire'),
    )}
    cross join (select ${viewerIds} as id) pair_v`;
}

/** One row of readerFactsRows, as a statement (or its JSON) answers it. */
export interface ReaderFactsRow {
  manuscript_id: number;
  viewer_id: number;
  granted: boolean;
  questionnaire: ReaderFacts['questionnaire'];
}

/** The facts of a readerFactsRows row. */
export const factsOfRow = (row: ReaderFactsRow): ReaderFacts => ({
  granted: row.granted,
  questionnaire: row.questionnaire,
});

/** The facts of one viewer about one manuscript, from readerFacts's answer. */
type FactsLookup = (manuscriptId: number, viewer: number | null) => ReaderFacts;

/** Facts of a pair the statement did not answer for (a manuscript that does not exist). */
const NO_FACTS: ReaderFacts = { granted: false, questionnaire: 'none' };

/** The rows' facts by manuscript and viewer. */
export function lookupOf(rows: readonly ReaderFactsRow[]): FactsLookup {
  const byPair = new Map(rows.map((row) => [`${row.manuscript_id}:${row.viewer_id}`, row]));
  return (manuscriptId, viewer) => {
    const row = byPair.get(`${manuscriptId}:${viewerIdOf(viewer)}`);
    return row ? factsOfRow(row) : NO_FACTS;
  };
}

/**
 * The facts of many viewers (null: logged out) about many manuscripts, in one statement: each
 * viewer's grant and questionnaire state for each manuscript.
 */
export async function readerFacts(
  db: Executor,
  manuscriptIds: readonly number[],
  viewers: ReadonlyArray<number | null>,
): Promise<FactsLookup> {
  if (manuscriptIds.length === 0 || viewers.length === 0) return lookupOf([]);
  const viewerIds = [...new Set(viewers.map(viewerIdOf))];
  const rows = await db
    .select({
      manuscript_id: sql<number>`facts.manuscript_id`,
      viewer_id: sql<number>`facts.viewer_id`,
      granted: sql<boolean>`facts.granted`,
      questionnaire: sql<ReaderFacts['questionnaire']>`facts.questionnaire`,
    })
    .from(sql`(${readerFactsRows(idSet(manuscriptIds), idSet(viewerIds))}) as facts`);
  return lookupOf(rows);
}
