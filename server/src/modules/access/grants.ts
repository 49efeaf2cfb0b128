import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';

/** The statuses of a reader's invite row that let them read a private or restricted manuscript. */
export const GRANTING_STATUSES = ['accepted', 'approved'] as const;

/**
 * The user holds a grant on the manuscript (an accepted invite, a redeemed link, an approved
 * request), as a condition: the ids are columns of the outer query, expressions or values.
 */
export function grantOn(manuscriptId: SQLWrapper, userId: SQLWrapper | number): SQL {
  const { invites } = schema;
  return sql`exists (select 1 from ${invites} where ${and(
    eq(invites.manuscriptId, manuscriptId),
    eq(invites.invitedUserId, userId),
    inArray(invites.status, [...GRANTING_STATUSES]),
  )})`;
}

/** Of these manuscripts, the ids the user holds a grant for (one query, for lists). */
export async function grantedManuscriptIds(
  db: Executor,
  userId: number,
  manuscriptIds: number[],
): Promise<Set<number>> {
  if (manuscriptIds.length === 0) return new Set();
  const rows = await db
    .select({ manuscriptId: schema.invites.manuscriptId })
    .from(schema.invites)
    .where(
      and(
        inArray(schema.invites.manuscriptId, manuscriptIds),
        eq(schema.invites.invitedUserId, userId),
        inArray(schema.invites.status, [...GRANTING_STATUSES]),
      ),
    );
  return new Set(rows.map((row) => row.manuscriptId));
}
