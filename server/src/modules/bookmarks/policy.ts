import {
  canOpen,
  canRead,
  type PolicyManuscript,
  type PolicyUser,
  type ReaderAccess,
} from '../access/policy.ts';

/**
 * create: add to reads; progress: record how far the reader got; list: keep it in the reads
 * list. Reads are for logged-in readers of the text (past every gate); a read stays listed
 * while its manuscript may still be opened (an accepted invite adds the read before the gate).
 */
export type BookmarkAction = 'create' | 'progress' | 'list';

export function can(
  user: PolicyUser,
  action: BookmarkAction,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
  if (user === null) return false;
  switch (action) {
    case 'create':
    case 'progress':
      return canRead(user, manuscript, access);
    case 'list':
      return canOpen(user, manuscript, access);
  }
}
