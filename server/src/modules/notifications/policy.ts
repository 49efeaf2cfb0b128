import type { NotificationKey } from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { Executor } from '../../db/index.ts';
import { wantsNotification } from '../profile/notification-preferences.ts';

/**
 * May we mail this user a notification of this kind? Only to a verified address, and only
 * when their preferences allow it (every key is on by default).
 */
export async function mayNotify(
  db: Executor,
  recipient: Pick<UserRow, 'id' | 'emailVerifiedAt'>,
  key: NotificationKey,
): Promise<boolean> {
  if (!recipient.emailVerifiedAt) return false;
  return wantsNotification(db, recipient.id, key);
}
