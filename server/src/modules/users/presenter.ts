import { SOCIAL_FIELDS, type CurrentUser, type PublicUser } from '@margins/common';
import type { UserRow } from '../../context.ts';

export const mediaUrl = (mediaId: string) => `/media/${mediaId}`;

/** What anyone may see of a user: never the e-mail. */
export function presentPublicUser(user: UserRow): PublicUser {
  const social = Object.fromEntries(SOCIAL_FIELDS.map((field) => [field, user[field] ?? null]));
  return {
    id: user.id,
    handle: user.handle,
    display_name: user.displayName,
    about: user.about,
    pronouns: user.pronouns,
    picture: user.pictureMediaId ? mediaUrl(user.pictureMediaId) : null,
    ...(social as Record<(typeof SOCIAL_FIELDS)[number], string | null>),
  };
}

/** The logged-in user as they see themselves (with their own e-mail). */
export function presentCurrentUser(user: UserRow): CurrentUser {
  return {
    ...presentPublicUser(user),
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    role: user.role,
    signup_complete: user.signupCompletedAt !== null,
    certified_18: user.certified18At !== null,
    show_mature: user.showMature,
  };
}
