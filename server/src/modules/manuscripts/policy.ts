// Who may do what to a manuscript: read it (the reading rule, access/policy.ts, shared by every
// module), change it (its author, while it is live: the edit form, a new draft, archiving) and
// fetch its uploaded original. Staff change manuscripts through the admin area, whose own
// policy (modules/admin/policy.ts) says which; both then call the same commands (service.ts).
import {
  canRead,
  isAdmin,
  isArchived,
  isOwner,
  NO_READER_ACCESS,
  type PolicyManuscript,
  type PolicyUser,
  type ReaderAccess,
} from '../access/policy.ts';
import { notFound } from '../../lib/http-errors.ts';

/** read: the text; edit, upload_draft, archive: the author's changes; view_original: the upload. */
export type ManuscriptAction = 'read' | 'edit' | 'upload_draft' | 'archive' | 'view_original';

/** The actions that change the manuscript (the author's, on a live one). */
export type ManuscriptChange = 'edit' | 'upload_draft' | 'archive';

/** Only the author changes a live manuscript: edit form, new draft, archive. */
export function canEdit(user: PolicyUser, manuscript: PolicyManuscript): boolean {
  return !isArchived(manuscript) && isOwner(user, manuscript);
}

/** The uploaded original file: its author (and admins reviewing an open report), never its readers. */
export function canViewOriginal(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  return (isAdmin(user) && access.openReport) || canEdit(user, manuscript);
}

/** One entry point for every action: can(user, 'edit', manuscript). */
export function can(
  user: PolicyUser,
  action: ManuscriptAction,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  switch (action) {
    case 'read':
      return canRead(user, manuscript, access);
    case 'edit':
    case 'upload_draft':
    case 'archive':
      return canEdit(user, manuscript);
    case 'view_original':
      return canViewOriginal(user, manuscript, access);
  }
}

/**
 * The manuscript, if the user may make this change to it; else 404, for one that is not theirs
 * or not live alike (never reveal that it exists).
 */
export function authorizeChange<Manuscript extends PolicyManuscript>(
  user: PolicyUser,
  action: ManuscriptChange,
  manuscript: Manuscript | null,
): Manuscript {
  if (!manuscript || !can(user, action, manuscript)) throw notFound();
  return manuscript;
}
