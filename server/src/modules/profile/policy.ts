import type { UserRow } from '../../context.ts';

/** What a policy needs to know about a user. */
export type ProfileSubject = Pick<UserRow, 'id' | 'signupCompletedAt'>;

/**
 * What one may do with a user's profile:
 * - view: the public profile and interests; only accounts that finished sign-up exist publicly.
 * - update: profile form, genres, preferences, mature and 18+ settings; only one's own.
 * - createInviteCode: only for oneself, and only after sign-up, so that an account still
 *   waiting for an invite code cannot mint its own.
 */
export type ProfileAction = 'view' | 'update' | 'createInviteCode';

/** True when actor (null when logged out) may do action on target's profile. */
export function can(actor: ProfileSubject | null, action: ProfileAction, target: ProfileSubject) {
  switch (action) {
    case 'view':
      return target.signupCompletedAt !== null;
    case 'update':
      return actor !== null && actor.id === target.id;
    case 'createInviteCode':
      return actor !== null && actor.id === target.id && actor.signupCompletedAt !== null;
  }
}
