import type { UserRow } from '../../context.ts';
import type { schema } from '../../db/index.ts';

type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

/** The viewer as the policy needs them; null when logged out. */
export type PolicyUser = Pick<UserRow, 'id' | 'role'> | null;
/** The manuscript as the policy needs it. */
export type PolicyManuscript = Pick<ManuscriptRow, 'userId' | 'visibility' | 'archivedAt'>;

/**
 * What is known about the viewer's own access to one manuscript (an invite accepted, a
 * questionnaire approved …). Loaded by loadReaderAccess(); the access issue fills it in.
 */
export interface ReaderAccess {
  /** An invited (or approved) reader of a private or restricted manuscript. */
  granted: boolean;
}
export const NO_READER_ACCESS: ReaderAccess = { granted: false };

export type ManuscriptAction = 'read' | 'edit' | 'upload_draft' | 'archive' | 'view_original';

export const isOwner = (user: PolicyUser, manuscript: PolicyManuscript): boolean =>
  user !== null && user.id === manuscript.userId;
export const isAdmin = (user: PolicyUser): boolean => user?.role === 'admin';
/** Admins and moderators read every live manuscript. */
export const isStaff = (user: PolicyUser): boolean =>
  user?.role === 'admin' || user?.role === 'moderator';
export const isArchived = (manuscript: PolicyManuscript): boolean => manuscript.archivedAt !== null;

/**
 * SEAM for the access issue: may this user read a private or restricted manuscript that is not
 * theirs? Today nobody may; the access issue loads invites and approvals into `access`.
 */
export function hasReaderAccess(
  user: PolicyUser,
  _manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
  return user !== null && access.granted;
}

/** The one reading rule: the reader page, its JSON, its images and everything built on it. */
export function canRead(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  if (isArchived(manuscript)) return isAdmin(user);
  if (isOwner(user, manuscript) || isStaff(user)) return true;
  switch (manuscript.visibility) {
    case 'public':
      return true;
    case 'logged_in':
      return user !== null;
    case 'private':
    case 'restricted':
      return hasReaderAccess(user, manuscript, access);
  }
}

/** Only the author changes a live manuscript: edit form, new draft, archive. */
export function canEdit(user: PolicyUser, manuscript: PolicyManuscript): boolean {
  return !isArchived(manuscript) && isOwner(user, manuscript);
}

/** The uploaded original file: its author (and admins), never its readers. */
export function canViewOriginal(user: PolicyUser, manuscript: PolicyManuscript): boolean {
  return isAdmin(user) || (!isArchived(manuscript) && isOwner(user, manuscript));
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
      return canViewOriginal(user, manuscript);
  }
}

/**
 * Why reading is refused, which decides the answer: `login` (401, or the login page) when
 * logging in would be enough; `hidden` (404: never reveal that it exists) otherwise.
 */
export function readRefusal(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): 'login' | 'hidden' | null {
  if (canRead(user, manuscript, access)) return null;
  if (user === null && !isArchived(manuscript) && manuscript.visibility === 'logged_in') {
    return 'login';
  }
  return 'hidden';
}
