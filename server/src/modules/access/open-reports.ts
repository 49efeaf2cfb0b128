import { sql, type SQL } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';

/**
 * The staff reading rule's fact: an open report on the manuscript, or on one of its comments
 * (a moderator judging a comment needs the passage it is on). As a condition on a manuscript
 * id (a column of the outer query, or a value).
 */
export function openReportOn(manuscriptId: SQL | number): SQL {
  const reports = schema.reports;
  return sql`exists (select 1 from ${reports} where ${reports.status} = 'open' and (
    (${reports.modelName} = 'manuscript' and ${reports.reportElementId} = ${manuscriptId})
    or (${reports.modelName} = 'comment' and ${reports.reportElementId} in (
      select ${schema.comments.id} from ${schema.comments}
      where ${schema.comments.manuscriptId} = ${manuscriptId}))))`;
}

/** The ids of this manuscript's comments that have an open report (the staff reading rule). */
export async function findReportedComments(
  db: Executor,
  manuscriptId: number,
): Promise<Set<number>> {
  const reports = schema.reports;
  const result = (await db.execute(sql`select distinct ${reports.reportElementId} as id
    from ${reports} join ${schema.comments} on ${schema.comments.id} = ${reports.reportElementId}
    where ${reports.status} = 'open' and ${reports.modelName} = 'comment'
      and ${schema.comments.manuscriptId} = ${manuscriptId}`)) as unknown as {
    rows: Array<{ id: number }>;
  };
  return new Set(result.rows.map((row) => Number(row.id)));
}

/** The newest open report that lets staff open this manuscript, or null. */
export async function findOpenReport(db: Executor, manuscriptId: number): Promise<number | null> {
  const reports = schema.reports;
  const result = (await db.execute(sql`select ${reports.id} as id from ${reports}
    where ${reports.status} = 'open' and (
      (${reports.modelName} = 'manuscript' and ${reports.reportElementId} = ${manuscriptId})
      or (${reports.modelName} = 'comment' and ${reports.reportElementId} in (
        select ${schema.comments.id} from ${schema.comments}
        where ${schema.comments.manuscriptId} = ${manuscriptId})))
    order by ${reports.createdAt} desc limit 1`)) as unknown as { rows: Array<{ id: number }> };
  return result.rows[0]?.id ?? null;
}
