import type { PolicyUser } from '../access/policy.ts';

/** A subscription may be changed only by the user it belongs to (staff included: no one else). */
export function canModifySubscription(user: PolicyUser, subscription: { userId: number }): boolean {
  return user !== null && user.id === subscription.userId;
}

/** Tips received are seen by the author they were paid to. */
export function canSeeTipsOf(user: PolicyUser, authorId: number): boolean {
  return user !== null && user.id === authorId;
}
