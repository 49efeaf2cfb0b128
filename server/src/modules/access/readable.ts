import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import { grantOn } from './grants.ts';
import { openReportOn } from './open-reports.ts';
import { isAdmin, isStaff, type PolicyUser } from './policy.ts';

const manuscripts = schema.manuscripts;

/**
 * canOpen() as a SQL condition on `manuscripts`: the manuscripts this viewer may know exist and
 * open. Discover, public profiles, the admin lists and any future list filter with it, so a list
 * never shows what the reader page would refuse. readable.test.ts holds it to canOpen over every
 * case of the access matrix. (The gates of readGate — 18+, questionnaire — are not refusals: a
 * gated manuscript is listed, and its page shows the gate.)
 */
export function readableManuscripts(viewer: PolicyUser): SQL {
  const live = isNull(manuscripts.archivedAt);
  if (viewer === null) return and(live, eq(manuscripts.visibility, 'public'))!;
  const asReader = and(
    live,
    or(
      eq(manuscripts.userId, viewer.id),
      inArray(manuscripts.visibility, ['public', 'logged_in']),
      and(
        inArray(manuscripts.visibility, ['private', 'restricted']),
        grantOn(manuscripts.id, viewer.id),
      ),
    ),
  )!;
  if (!isStaff(viewer)) return asReader;
  // Staff: as readers, and what a report on it opens (archived ones too, for admins).
  const reported = openReportOn(sql`${manuscripts.id}`);
  return or(asReader, isAdmin(viewer) ? reported : and(live, reported))!;
}

/** The ids of the manuscripts among `ids` this viewer may open (one query, for lists). */
export async function readableIds(
  db: Executor,
  viewer: PolicyUser,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: manuscripts.id })
    .from(manuscripts)
    .where(and(inArray(manuscripts.id, ids), readableManuscripts(viewer)));
  return new Set(rows.map((row) => row.id));
}
