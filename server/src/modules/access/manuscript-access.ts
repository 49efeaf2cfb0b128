import { eq, getTableColumns, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db/index.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import type { ReaderAccess } from './policy.ts';
import {
  factsOfRow,
  idSet,
  lookupOf,
  oneId,
  readerFactsRows,
  viewerIdOf,
  type ReaderFacts,
  type ReaderFactsRow,
} from './reader-facts.ts';

/**
 * A reader's access from their facts, as loadReaderAccess answers for a reader (not the author,
 * not staff, whose open reports these statements do not read).
 */
export const readerAccessOf = (
  viewer: { certified18At: Date | null } | null,
  facts: ReaderFacts,
): ReaderAccess => ({ ...facts, certified18: viewer?.certified18At != null, openReport: false });

/**
 * A manuscript row with one reader's facts (readerFactsRows), in one prepared statement: what a
 * socket write checks on every event, fresh each time.
 */
export function prepareManuscriptWithFacts(db: Db, name: string) {
  const { manuscripts } = schema;
  const manuscriptId = sql.placeholder('manuscriptId');
  const facts = readerFactsRows(oneId(manuscriptId), oneId(sql.placeholder('viewerId')));
  const query = db
    .select({
      manuscript: getTableColumns(manuscripts),
      facts: sql<ReaderFactsRow>`(select row_to_json(facts) from (${facts}) as facts)`,
    })
    .from(manuscripts)
    .where(eq(manuscripts.id, manuscriptId))
    .prepare(name);
  return async (
    viewer: number | null,
    id: number,
  ): Promise<{ manuscript: ManuscriptRow; facts: ReaderFacts } | null> => {
    const [row] = await query.execute({ viewerId: viewerIdOf(viewer), manuscriptId: id });
    if (!row) return null;
    return { manuscript: row.manuscript, facts: factsOfRow(row.facts) };
  };
}

/**
 * A manuscript row with the facts of many readers (readerFactsRows), in one statement (a join
 * storm's viewers of one manuscript): each user id maps to their facts; null stands for a
 * logged-out viewer. Null when the manuscript does not exist.
 */
export async function manuscriptWithReaders(
  db: Db,
  id: number,
  userIds: number[],
): Promise<{ manuscript: ManuscriptRow; factsOf: (userId: number | null) => ReaderFacts } | null> {
  const { manuscripts } = schema;
  // The logged-out viewer is always asked for: it costs one row.
  const viewerIds = [viewerIdOf(null), ...userIds];
  const facts = readerFactsRows(oneId(id), idSet(viewerIds));
  const [row] = await db
    .select({
      manuscript: getTableColumns(manuscripts),
      facts: sql<ReaderFactsRow[]>`(select json_agg(facts) from (${facts}) as facts)`,
    })
    .from(manuscripts)
    .where(eq(manuscripts.id, id));
  if (!row) return null;
  const factsOf = lookupOf(row.facts);
  return { manuscript: row.manuscript, factsOf: (userId) => factsOf(id, userId) };
}
