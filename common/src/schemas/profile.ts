import { z } from 'zod';
import { NOTIFICATION_KEYS, SOCIAL_FIELDS } from '../constants.ts';
import { handleSchema } from './auth.ts';
import { currentUser as currentUserSchema, publicUser } from './user.ts';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .optional()
    .transform((value) => (value ? value : null));

const socialValue = optionalText(200).refine(
  (value) => value === null || !/[\s<>"]/.test(value),
  'No spaces or angle brackets.',
);

/** The profile form (multipart or JSON). Social fields are handles or URLs. */
export const profileForm = z.object({
  handle: handleSchema,
  display_name: z
    .string()
    .trim()
    .min(1, 'Enter a display name.')
    .max(80, 'Use at most 80 characters.'),
  about: optionalText(2000),
  pronouns: optionalText(40),
  ...(Object.fromEntries(SOCIAL_FIELDS.map((field) => [field, socialValue])) as Record<
    (typeof SOCIAL_FIELDS)[number],
    typeof socialValue
  >),
});
export type ProfileForm = z.input<typeof profileForm>;

export const profileFormResponse = z.object({
  form: z.object({ errors: z.record(z.string(), z.array(z.string())) }),
  user: publicUser.optional(),
});

export const genre = z.object({ genre_id: z.number(), name: z.string() });
export type Genre = z.infer<typeof genre>;
export const genreCategory = z.object({ category: z.string(), genres: z.array(genre) });
export type GenreCategory = z.infer<typeof genreCategory>;
export const interestsResponse = z.object({
  interests: z.array(z.object({ id: z.number(), name: z.string() })),
});

/** Preference key → list of channels (only "email"). */
export const notificationPreferences = z.object(
  Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, z.array(z.literal('email'))])) as Record<
    (typeof NOTIFICATION_KEYS)[number],
    z.ZodArray<z.ZodLiteral<'email'>>
  >,
);
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

export const inviteCode = z.object({
  code: z.string(),
  redeemed: z.boolean(),
  created: z.string(),
});
export type InviteCode = z.infer<typeof inviteCode>;

export const matureBody = z.object({ show_mature: z.boolean() });

export const lookupQuery = z.object({ q: z.string().trim().min(1).max(80) });
export const lookupResponse = z.object({
  users: z.array(
    z.object({ id: z.number(), handle: z.string().nullable(), display_name: z.string() }),
  ),
});

export const publicProfileResponse = z.object({
  user: publicUser,
  interests: z.array(z.object({ id: z.number(), name: z.string() })),
});

/** Everything the current-profile page needs (GET /profile/ with Accept: application/json). */
export const profileBundle = z.object({
  user: z.lazy(() => currentUserSchema),
  categories: z.array(genreCategory),
  selected_genre_ids: z.array(z.number()),
  notification_preferences: notificationPreferences,
  invite_codes: z.array(inviteCode),
  /** How many more platform invite codes the user may create. */
  invites_remaining: z.number(),
});
export type ProfileBundle = z.infer<typeof profileBundle>;

export const generateInviteResponse = z.object({
  invite_code: inviteCode,
  invites_remaining: z.number(),
});
export const certifyResponse = z.object({ certified_18: z.literal(true) });
