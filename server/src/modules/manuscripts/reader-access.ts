import type { AppContext } from '../../context.ts';
import { NO_READER_ACCESS, type PolicyUser, type ReaderAccess } from './policy.ts';
import type { ManuscriptRow } from './presenter.ts';

/**
 * SEAM for the access issue: loads the viewer's invites and approvals for one manuscript, for
 * canRead()/hasReaderAccess(). Nobody has invite access yet.
 */
export async function loadReaderAccess(
  _ctx: AppContext,
  _viewer: PolicyUser,
  _manuscript: ManuscriptRow,
): Promise<ReaderAccess> {
  return NO_READER_ACCESS;
}
