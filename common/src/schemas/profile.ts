import { z } from 'zod';
import { NOTIFICATION_CHANNELS, NOTIFICATION_KEYS, SOCIAL_FIELDS } from '../constants.ts';
import { handleSchema } from './auth.ts';
import { errorBody } from './common.ts';
import { databaseId, singleLineText } from './fields.ts';
import { currentUser as currentUserSchema, publicUser } from './user.ts';

/** Field name → messages. */
const fieldErrors = z.record(z.string(), z.array(z.string()));

/** An absent field leaves the value as it is; an empty one clears it (null). */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .optional()
    .transform((value) => (value === undefined ? undefined : value || null));

/** A URL scheme at the start ("javascript:", "data:", "https:" …). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

const socialValue = optionalText(200)
  .refine(
    (value) => value === undefined || value === null || !/[\s<>"]/.test(value),
    'No spaces or angle brackets.',
  )
  .refine(
    (value) => !value || !SCHEME.test(value) || /^https?:\/\//i.test(value),
    'A link must start with https:// or http://.',
  );

/** A checkbox as JSON (true/false) or as a form field ("on", "true", "1"). */
const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0', ''])])
  .optional()
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

/**
 * The profile form (multipart with an optional `picture` file, or JSON / urlencoded).
 * Social fields are handles or http(s) links. Absent optional fields stay unchanged,
 * empty ones are cleared.
 */
export const profileForm = z.object({
  handle: handleSchema,
  display_name: singleLineText()
    .trim()
    .min(1, 'Enter a display name.')
    .max(80, 'Use at most 80 characters.'),
  about: optionalText(2000),
  pronouns: optionalText(40),
  ...(Object.fromEntries(SOCIAL_FIELDS.map((field) => [field, socialValue])) as Record<
    (typeof SOCIAL_FIELDS)[number],
    typeof socialValue
  >),
  /** True removes the current picture (ignored when a new `picture` file is sent). */
  remove_picture: formBoolean,
});
export type ProfileForm = z.input<typeof profileForm>;
export type ProfileFormValues = z.output<typeof profileForm>;

/** 200 answer of POST /profile/: no errors, and the saved user (as they see themselves). */
export const profileFormResponse = z.object({
  form: z.object({ errors: fieldErrors }),
  user: currentUserSchema.optional(),
});
export type ProfileFormResponse = z.infer<typeof profileFormResponse>;

/** 400 answer of POST /profile/: the usual error body, plus the errors again under `form`. */
export const profileFormErrorResponse = errorBody.extend({
  form: z.object({ errors: fieldErrors }),
});
export type ProfileFormErrorResponse = z.infer<typeof profileFormErrorResponse>;

export const genre = z.object({ genre_id: z.number(), name: z.string() });
export type Genre = z.infer<typeof genre>;
/** One category of the genre catalogue with its genres, in display order. */
export const genreCategory = z.object({ category: z.string(), genres: z.array(genre) });
export type GenreCategory = z.infer<typeof genreCategory>;
/** A user's genre preferences (public). */
export const interestsResponse = z.object({
  interests: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type InterestsResponse = z.infer<typeof interestsResponse>;

/** GET /profile/genres as JSON: the catalogue and the caller's selection. */
export const profileGenresResponse = z.object({
  categories: z.array(genreCategory),
  selected_genre_ids: z.array(z.number()),
});
export type ProfileGenresResponse = z.infer<typeof profileGenresResponse>;

export const userIdParams = z.object({ user_id: databaseId });
export const genreIdParams = z.object({ genre_id: databaseId });

const channelList = z.array(z.enum(NOTIFICATION_CHANNELS, { error: 'The only channel is email.' }));

/** Preference key → list of channels (only "email"). */
export const notificationPreferences = z.object(
  Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, z.array(z.literal('email'))])) as Record<
    (typeof NOTIFICATION_KEYS)[number],
    z.ZodArray<z.ZodLiteral<'email'>>
  >,
);
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/**
 * POST /profile/notification/preferences: preference key → channels ([] turns it off).
 * Keys left out keep their value; unknown keys or channels are refused.
 */
export const notificationPreferencesBody = z.strictObject(
  Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, channelList.optional()])) as Record<
    (typeof NOTIFICATION_KEYS)[number],
    z.ZodOptional<typeof channelList>
  >,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown preference: ${issue.keys.join(', ')}.`
        : undefined,
  },
);
export type NotificationPreferencesBody = z.infer<typeof notificationPreferencesBody>;

export const notificationPreferencesResponse = z.object({
  notification_preferences: notificationPreferences,
});
export type NotificationPreferencesResponse = z.infer<typeof notificationPreferencesResponse>;

export const inviteCode = z.object({
  /** What the invitee types at sign-up. */
  code: z.string(),
  redeemed: z.boolean(),
  /** ISO-8601 creation time. */
  created: z.string(),
});
export type InviteCode = z.infer<typeof inviteCode>;

/** The mature-content preference (body and answer of POST /profile/mature). */
export const matureBody = z.object({ show_mature: z.boolean() });
export type MatureBody = z.infer<typeof matureBody>;

export const lookupQuery = z.object({ q: z.string().trim().min(1).max(80) });
/** Invite autocomplete: never an e-mail address. */
export const lookupResponse = z.object({
  users: z.array(
    z.object({ id: z.number(), handle: z.string().nullable(), display_name: z.string() }),
  ),
});
export type LookupResponse = z.infer<typeof lookupResponse>;

export const publicProfileResponse = z.object({
  user: publicUser,
  interests: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type PublicProfileResponse = z.infer<typeof publicProfileResponse>;

/** Everything the current-profile page needs (GET /profile/ with Accept: application/json). */
export const profileBundle = z.object({
  user: z.lazy(() => currentUserSchema),
  categories: z.array(genreCategory),
  selected_genre_ids: z.array(z.number()),
  notification_preferences: notificationPreferences,
  /** The platform invite codes this user created, newest first. */
  invite_codes: z.array(inviteCode),
  /** How many more platform invite codes the user may create. */
  invites_remaining: z.number(),
});
export type ProfileBundle = z.infer<typeof profileBundle>;

export const generateInviteResponse = z.object({
  invite_code: inviteCode,
  invites_remaining: z.number(),
});
export type GenerateInviteResponse = z.infer<typeof generateInviteResponse>;
export const certifyResponse = z.object({ certified_18: z.literal(true) });
export type CertifyResponse = z.infer<typeof certifyResponse>;
