import { SOCIAL_FIELDS, SOCIAL_LINK_PREFIX, type SocialField } from '@margins/common';

/** Human names of the social fields. */
export const SOCIAL_LABELS: Record<SocialField, string> = {
  bluesky: 'Bluesky',
  discord: 'Discord',
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  mastodon: 'Mastodon',
  twitter: 'X (Twitter)',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  website: 'Website',
};

interface SocialLink {
  field: SocialField;
  label: string;
  /** What is shown: the handle or address as the user wrote it. */
  text: string;
  /** Where it links to; null when shown without a link (discord, or no safe URL). */
  href: string | null;
}

function isHttpsUrl(value: string): boolean {
  try {
    return value.startsWith('https://') && new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The link for one social field (SPEC §3): the field's prefix plus the handle; discord has
 * no link; mastodon and website have no prefix and link only when they are https:// URLs.
 */
function socialLink(field: SocialField, rawValue: string): SocialLink {
  const value = rawValue.trim();
  const link = { field, label: SOCIAL_LABELS[field], text: value };
  const prefix = SOCIAL_LINK_PREFIX[field];
  if (prefix === null) return { ...link, href: null };
  if (isHttpsUrl(value)) return { ...link, href: value };
  if (prefix === '') return { ...link, href: null };
  const handle = value.replace(/^@+/, '');
  return { ...link, href: prefix + encodeURIComponent(handle) };
}

/** The social links a user has filled in, in the fixed field order. */
export function socialLinksOf(user: Partial<Record<SocialField, string | null>>): SocialLink[] {
  return SOCIAL_FIELDS.flatMap((field) => {
    const value = user[field];
    return value && value.trim() ? [socialLink(field, value)] : [];
  });
}
