// The moderation bulk actions of the admin sections. Each handler does the smallest database
// change that the action means, in the request's transaction (the router writes the audit row).
// The moderation module (server/src/modules/moderation/) owns these rules: at merge, each
// handler below is pointed at its service there (flagManuscript, suspendUser, …), which also
// emits the domain events (live rooms, e-mails) that these minimal versions do not.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { schema, type Tx } from '../../../db/index.ts';
import type { AdminActor, BulkActionDeclaration } from '../types.ts';

const STAFF_ACTIONS = ['admin', 'moderator'] as const;

async function flagManuscripts(tx: Tx, ids: number[], reason: string): Promise<number> {
  const rows = await tx
    .update(schema.manuscripts)
    .set({ moderationFlag: true, moderationReason: reason, updatedAt: sql`now()` })
    .where(inArray(schema.manuscripts.id, ids))
    .returning({ id: schema.manuscripts.id });
  return rows.length;
}

async function clearManuscriptFlags(tx: Tx, ids: number[]): Promise<number> {
  const rows = await tx
    .update(schema.manuscripts)
    .set({ moderationFlag: false, moderationReason: null, updatedAt: sql`now()` })
    .where(and(inArray(schema.manuscripts.id, ids), eq(schema.manuscripts.moderationFlag, true)))
    .returning({ id: schema.manuscripts.id });
  return rows.length;
}

async function flagComments(tx: Tx, ids: number[], reason: string): Promise<number> {
  const rows = await tx
    .update(schema.comments)
    .set({ moderationFlag: true, moderationReason: reason, changedAt: sql`now()` })
    .where(inArray(schema.comments.id, ids))
    .returning({ id: schema.comments.id });
  return rows.length;
}

async function clearCommentFlags(tx: Tx, ids: number[]): Promise<number> {
  const rows = await tx
    .update(schema.comments)
    .set({ moderationFlag: false, moderationReason: null, changedAt: sql`now()` })
    .where(and(inArray(schema.comments.id, ids), eq(schema.comments.moderationFlag, true)))
    .returning({ id: schema.comments.id });
  return rows.length;
}

/**
 * Until the moderation module's suspension (a suspended_at column, refused log-ins) is merged,
 * suspending ends the accounts' sessions. Staff accounts are never suspended from here.
 */
async function suspendUsers(tx: Tx, ids: number[]): Promise<number> {
  const members = await tx
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(and(inArray(schema.users.id, ids), eq(schema.users.role, 'user')));
  if (members.length === 0) return 0;
  await tx.delete(schema.sessions).where(
    inArray(
      schema.sessions.userId,
      members.map((member) => member.id),
    ),
  );
  return members.length;
}

/** Lifting needs the moderation module's suspension state: nothing to undo before it lands. */
async function liftSuspensions(_tx: Tx, _ids: number[]): Promise<number> {
  return 0;
}

/** Closes open reports without action. */
async function dismissReports(tx: Tx, ids: number[], actor: AdminActor): Promise<number> {
  const rows = await tx
    .update(schema.reports)
    .set({
      status: 'dismissed',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(schema.reports.id, ids), eq(schema.reports.status, 'open')))
    .returning({ id: schema.reports.id });
  return rows.length;
}

/** Flags what the reports are about, with the reason, and resolves every open report on it. */
async function flagReportedElements(
  tx: Tx,
  ids: number[],
  reason: string,
  actor: AdminActor,
): Promise<number> {
  const reports = await tx
    .select({ model: schema.reports.modelName, elementId: schema.reports.reportElementId })
    .from(schema.reports)
    .where(inArray(schema.reports.id, ids));
  const byModel = (model: string) =>
    reports.filter((report) => report.model === model).map((report) => report.elementId);
  const manuscripts = byModel('manuscript');
  const comments = byModel('comment');
  if (manuscripts.length) await flagManuscripts(tx, manuscripts, reason);
  if (comments.length) await flagComments(tx, comments, reason);
  const resolved = await tx
    .update(schema.reports)
    .set({
      status: 'resolved',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(schema.reports.status, 'open'),
        sql`(${schema.reports.modelName}, ${schema.reports.reportElementId}) in (select ${schema.reports.modelName}, ${schema.reports.reportElementId} from ${schema.reports} where ${inArray(schema.reports.id, ids)})`,
      ),
    )
    .returning({ id: schema.reports.id });
  return resolved.length;
}

const flagConfirm = 'Flag the chosen items? Readers will see the reason you give.';

export const moderationManuscriptActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: (_ctx, tx, ids, input) => flagManuscripts(tx, ids, input.reason!),
  },
  {
    name: 'clear-flag',
    label: 'Clear flag',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: (_ctx, tx, ids) => clearManuscriptFlags(tx, ids),
  },
];

export const moderationCommentActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: (_ctx, tx, ids, input) => flagComments(tx, ids, input.reason!),
  },
  {
    name: 'clear-flag',
    label: 'Clear flag',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: (_ctx, tx, ids) => clearCommentFlags(tx, ids),
  },
];

export const moderationUserActions: BulkActionDeclaration[] = [
  {
    name: 'suspend',
    label: 'Suspend',
    confirm: 'Suspend the chosen accounts? They are logged out at once.',
    roles: STAFF_ACTIONS,
    handler: (_ctx, tx, ids) => suspendUsers(tx, ids),
  },
  {
    name: 'lift-suspension',
    label: 'Lift suspension',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: (_ctx, tx, ids) => liftSuspensions(tx, ids),
  },
];

export const moderationReportActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag the reported items',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: (_ctx, tx, ids, input, actor) => flagReportedElements(tx, ids, input.reason!, actor),
  },
  {
    name: 'dismiss',
    label: 'Dismiss',
    confirm: 'Dismiss the chosen reports without action?',
    roles: STAFF_ACTIONS,
    handler: (_ctx, tx, ids, _input, actor) => dismissReports(tx, ids, actor),
  },
];
