import { and, eq, inArray } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';

/** The statuses of a reader's invite row that let them read a private or restricted manuscript. */
export const GRANTING_STATUSES = ['accepted', 'approved'] as const;

/** True when the user holds an accepted invite, a redeemed link or an approved request. */
export async function hasGrant(
  db: Executor,
  userId: number,
  manuscriptId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.invites.id })
    .from(schema.invites)
    .where(
      and(
        eq(schema.invites.manuscriptId, manuscriptId),
        eq(schema.invites.invitedUserId, userId),
        inArray(schema.invites.status, [...GRANTING_STATUSES]),
      ),
    )
    .limit(1);
  return row !== undefined;
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
