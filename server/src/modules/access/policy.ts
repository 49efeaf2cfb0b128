import type { UserRow } from '../../context.ts';
import type { schema } from '../../db/index.ts';

type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

/** The viewer as the policy needs them; null when logged out. */
export type PolicyUser = Pick<UserRow, 'id' | 'role'> | null;
/** The manuscript as the policy needs it. */
export type PolicyManuscript = Pick<ManuscriptRow, 'userId' | 'visibility' | 'archivedAt' | 'nsfw'>;

/**
 * What is known about the viewer's own access to one manuscript. Loaded by
 * loadReaderAccess() (reader-access.ts) from the invites, surveys and the user row.
 */
export interface ReaderAccess {
  /** An accepted invitee, a redeemer of a private link, or an approved requester. */
  granted: boolean;
  /**
   * The questionnaire gate: `none` (the manuscript has no questionnaire), `unanswered`,
   * `pending` (answered, not approved yet) or `approved`.
   */
  questionnaire: 'none' | 'unanswered' | 'pending' | 'approved';
  /** The viewer certified they are 18 or over (users.certified_18_at). */
  certified18: boolean;
  /**
   * A report on the manuscript (or on one of its comments) is open: the one time staff may
   * open what its readers alone may (the staff reading rule). Loaded for staff only.
   */
  openReport: boolean;
  /**
   * Staff only: this manuscript's comments with an open report. While it is open, staff see
   * such a comment's text even when private comments hide it from readers (audited).
   */
  reportedComments?: ReadonlySet<number>;
}
export const NO_READER_ACCESS: ReaderAccess = {
  granted: false,
  questionnaire: 'none',
  certified18: false,
  openReport: false,
};

/** What still stands between a reader who may open a manuscript and its text. */
type ReadGate = 'mature' | 'questionnaire' | 'awaiting_approval';

export const isOwner = (user: PolicyUser, manuscript: PolicyManuscript): boolean =>
  user !== null && user.id === manuscript.userId;
export const isAdmin = (user: PolicyUser): boolean => user?.role === 'admin';
/**
 * Admins and moderators. They do not read at will: where a reader could not, they may open a
 * manuscript only while a report on it is open (opensByReport), and each such opening is
 * recorded and shown to its author (modules/moderation/staff-openings.ts).
 */
export const isStaff = (user: PolicyUser): boolean =>
  user?.role === 'admin' || user?.role === 'moderator';
export const isArchived = (manuscript: PolicyManuscript): boolean => manuscript.archivedAt !== null;

/**
 * May this user read a private or restricted manuscript that is not theirs? Private: accepted
 * invitees and redeemers of a private link; restricted: those and approved requesters (all
 * recorded as a grant). Never anyone logged out.
 */
function hasReaderAccess(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
  if (manuscript.visibility !== 'private' && manuscript.visibility !== 'restricted') return false;
  return user !== null && access.granted;
}

/**
 * May the viewer open the manuscript at all: know it exists, see its reader page (with a gate
 * when one applies), answer its questionnaire? The invite type decides.
 */
export function canOpen(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  if (isArchived(manuscript)) return isAdmin(user) && access.openReport;
  if (isOwner(user, manuscript) || opensAsReader(user, manuscript, access)) return true;
  return isStaff(user) && access.openReport;
}

/** The invite type's rule for anyone (staff included): what a reader may open. */
function opensAsReader(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
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

/**
 * Staff open it only because a report on it is open (no reader's right, not the author): such
 * an opening is recorded and the author is shown it.
 */
export function opensByReport(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
  if (!isStaff(user) || isOwner(user, manuscript) || !canOpen(user, manuscript, access)) {
    return false;
  }
  return isArchived(manuscript) || !opensAsReader(user, manuscript, access);
}

/**
 * The gate between a viewer who may open the manuscript and its text: 18+ certification for
 * mature content, then an approved questionnaire answer. Authors pass every gate, and staff
 * reviewing an open report; otherwise staff are readers like anyone else.
 */
export function readGate(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): ReadGate | null {
  if (isOwner(user, manuscript) || (isStaff(user) && access.openReport)) return null;
  if (manuscript.nsfw && !access.certified18) return 'mature';
  if (access.questionnaire === 'unanswered') return 'questionnaire';
  if (access.questionnaire === 'pending') return 'awaiting_approval';
  return null;
}

/**
 * The one reading rule for the text and everything built on it (its JSON, images, comments,
 * the socket room, reads and their progress): open it, and no gate left.
 */
export function canRead(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): boolean {
  return canOpen(user, manuscript, access) && readGate(user, manuscript, access) === null;
}

/**
 * Why opening is refused, which decides the answer: `login` (401, or the login page) when
 * logging in would be enough; `hidden` (404: never reveal that it exists) otherwise. A gate
 * (readGate) is not a refusal: the reader page shows it.
 */
export function readRefusal(
  user: PolicyUser,
  manuscript: PolicyManuscript,
  access: ReaderAccess = NO_READER_ACCESS,
): 'login' | 'hidden' | null {
  if (canOpen(user, manuscript, access)) return null;
  if (user === null && !isArchived(manuscript) && manuscript.visibility === 'logged_in') {
    return 'login';
  }
  return 'hidden';
}
