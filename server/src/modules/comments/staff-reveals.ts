import { and, eq, gt, sql } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import { recordAudit } from '../admin/audit.ts';
import { isOwner } from '../access/policy.ts';
import { revealedByReport } from './policy.ts';
import type { CommentRow } from './presenter.ts';
import type { CommentScope } from './scope.ts';

/** The same staff member reading the same reported comments again within this is one reading. */
const SAME_READING_MS = 10 * 60_000;

/**
 * Staff read private comments only while a report on them is open (issue 14 item 3): each such
 * reading is written to the audit log (section comment-opening, the comments' ids) and shown to
 * the author as a staff opening of the manuscript. A reload within SAME_READING_MS is not a new
 * reading. Nothing is written when no private text was shown because of a report.
 */
export async function recordStaffCommentReveals(
  db: Executor,
  scope: CommentScope,
  comments: Array<Pick<CommentRow, 'id' | 'authorId'>>,
): Promise<void> {
  const { viewer, manuscript, access } = scope;
  if (!viewer || !manuscript.privateComments || isOwner(viewer, manuscript)) return;
  const ids = comments
    .filter((comment) => comment.authorId !== viewer.id)
    .filter((comment) => revealedByReport(viewer, comment, access))
    .map((comment) => comment.id)
    .sort((a, b) => a - b);
  if (ids.length === 0) return;
  const [recent] = await db
    .select({ id: schema.auditLog.id })
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.actorId, viewer.id),
        eq(schema.auditLog.section, 'comment-opening'),
        sql`${schema.auditLog.entityIds} @> ${sql`array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::integer[]`}`,
        gt(
          schema.auditLog.createdAt,
          sql`now() - make_interval(secs => ${SAME_READING_MS / 1000})`,
        ),
      ),
    )
    .limit(1);
  if (recent) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(schema.staffOpenings)
      .values({ manuscriptId: manuscript.id, staffId: viewer.id });
    await recordAudit(tx, {
      actorId: viewer.id,
      actorRole: viewer.role === 'admin' ? 'admin' : 'moderator',
      section: 'comment-opening',
      action: 'read',
      entityIds: ids,
      after: { manuscriptId: manuscript.id },
    });
  });
}
