import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import type { PolicyUser } from '../access/policy.ts';

/**
 * view: the Insights tab, the heat strip; settings: the reminder setting; nudge: remind one
 * reader by hand. All the author's alone: readers see only their own progress (the reads
 * service), never another reader's, and staff have no business in a reader's habits.
 */
export type InsightsAction = 'view' | 'settings' | 'nudge';

export function can(user: PolicyUser, _action: InsightsAction, manuscript: ManuscriptRow): boolean {
  if (user === null) return false;
  return manuscript.userId === user.id && manuscript.archivedAt === null;
}
