import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { StaffOpening } from '@margins/common';
import { schema, type Db } from '../../db/index.ts';
import { recordAudit } from '../admin/audit.ts';
import { findOpenReport } from './open-reports.ts';
import {
  opensByReport,
  type PolicyManuscript,
  type PolicyUser,
  type ReaderAccess,
} from './policy.ts';

/** One staff member opening one manuscript again within this is the same opening. */
const SAME_OPENING_MS = 10 * 60_000;
/** The author is shown this many, newest first. */
const OPENINGS_SHOWN = 20;

/**
 * Records that staff opened a manuscript only a report let them open (the staff reading rule):
 * the author is shown each opening. A reload within SAME_OPENING_MS is not a new one.
 */
export async function recordStaffOpening(
  db: Db,
  viewer: PolicyUser,
  manuscript: PolicyManuscript & { id: number },
  access: ReaderAccess,
): Promise<boolean> {
  if (!viewer || !opensByReport(viewer, manuscript, access)) return false;
  const reportId = await findOpenReport(db, manuscript.id);
  const [recent] = await db
    .select({ id: schema.staffOpenings.id })
    .from(schema.staffOpenings)
    .where(
      and(
        eq(schema.staffOpenings.manuscriptId, manuscript.id),
        eq(schema.staffOpenings.staffId, viewer.id),
        gt(
          schema.staffOpenings.openedAt,
          sql`now() - make_interval(secs => ${SAME_OPENING_MS / 1000})`,
        ),
      ),
    )
    .limit(1);
  if (recent) return false;
  await db.transaction(async (tx) => {
    await tx
      .insert(schema.staffOpenings)
      .values({ manuscriptId: manuscript.id, staffId: viewer.id, reportId });
    // Staff reading is a staff act like any write: it is in the audit log too.
    await recordAudit(tx, {
      actorId: viewer.id,
      actorRole: viewer.role === 'admin' ? 'admin' : 'moderator',
      section: 'manuscript-opening',
      action: 'open',
      entityIds: [manuscript.id],
      after: { reportId },
    });
  });
  return true;
}

/** The staff openings of a manuscript as its author sees them (no staff names: the role acts). */
export async function listStaffOpenings(db: Db, manuscriptId: number): Promise<StaffOpening[]> {
  const rows = await db
    .select({ openedAt: schema.staffOpenings.openedAt })
    .from(schema.staffOpenings)
    .where(eq(schema.staffOpenings.manuscriptId, manuscriptId))
    .orderBy(desc(schema.staffOpenings.openedAt), desc(schema.staffOpenings.id))
    .limit(OPENINGS_SHOWN);
  return rows.map((row) => ({ opened: row.openedAt.toISOString() }));
}
