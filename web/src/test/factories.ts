import type { CurrentUser, PageConfig, PublicUser } from '@margins/common';
import { anonymousConfig } from '../page-config.ts';

let nextId = 100;

/** A public user with every social field empty unless given. */
export function buildUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const id = overrides.id ?? nextId++;
  return {
    id,
    handle: `writer${id}`,
    display_name: `Writer ${id}`,
    about: null,
    pronouns: null,
    picture: null,
    bluesky: null,
    discord: null,
    instagram: null,
    facebook: null,
    threads: null,
    mastodon: null,
    twitter: null,
    tiktok: null,
    youtube: null,
    website: null,
    ...overrides,
  };
}

/** The logged-in user as they see themselves. */
export function buildCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const user = buildUser(overrides);
  return {
    ...user,
    email: `${user.handle ?? 'someone'}@example.com`,
    email_verified: true,
    role: 'user',
    signup_complete: true,
    certified_18: false,
    show_mature: false,
    ...overrides,
  };
}

/** A page configuration for a logged-in user. */
export function buildConfig(
  page: string,
  data: Record<string, unknown> = {},
  user: CurrentUser | null = buildCurrentUser(),
): PageConfig {
  if (!user) return anonymousConfig(page, data);
  return {
    ...anonymousConfig(page, data),
    currentUser: user,
    currentUserId: user.id,
    current_user_id: user.id,
    loginState: 'logged_in',
  };
}
