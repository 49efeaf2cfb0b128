import type { InviteType } from '@margins/common';
import { NO_READER_ACCESS, type PolicyManuscript, type PolicyUser } from './policy.ts';

// The viewers and manuscripts of the policy tables (access/, manuscripts/).

const AUTHOR_ID = 1;
export const VIEWERS = {
  anonymous: null,
  stranger: { id: 2, role: 'user' },
  owner: { id: AUTHOR_ID, role: 'user' },
  moderator: { id: 3, role: 'moderator' },
  admin: { id: 4, role: 'admin' },
} satisfies Record<string, PolicyUser>;
export type Viewer = keyof typeof VIEWERS;

/** A manuscript of AUTHOR_ID with this invite type, live or archived. */
export const policyManuscript = (visibility: InviteType, archived = false): PolicyManuscript => ({
  userId: AUTHOR_ID,
  visibility,
  archivedAt: archived ? new Date() : null,
  nsfw: false,
});
/** An invited reader's access. */
export const granted = { ...NO_READER_ACCESS, granted: true };
/** Staff's access while a report is open. */
export const reported = { ...NO_READER_ACCESS, openReport: true };
