import type { AdminRole } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';

/** One audited change: who, in which role, where, what, on which ids, before and after. */
interface AuditEntry {
  actorId: number;
  actorRole: AdminRole;
  /** The admin section (or the module, for staff writes elsewhere, e.g. "manuscript-opening"). */
  section: string;
  /** create, update, delete, field, or the bulk action's name. */
  action: string;
  entityIds: number[];
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one audit-log row. Call it with the transaction of the change it records, so that the
 * change and its record commit or roll back together.
 */
export async function recordAudit(tx: Executor, entry: AuditEntry): Promise<void> {
  await tx.insert(schema.auditLog).values({
    actorId: entry.actorId,
    actorRole: entry.actorRole,
    section: entry.section,
    action: entry.action,
    entityIds: entry.entityIds,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
