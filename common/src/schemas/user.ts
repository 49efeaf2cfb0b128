import { z } from 'zod';
import { ROLES, SOCIAL_FIELDS } from '../constants.ts';

const socialShape = Object.fromEntries(
  SOCIAL_FIELDS.map((field) => [field, z.string().nullable()]),
) as Record<(typeof SOCIAL_FIELDS)[number], z.ZodNullable<z.ZodString>>;

/** What anyone may see of a user (SPEC §3 author). Never the e-mail. */
export const publicUser = z.object({
  id: z.number(),
  handle: z.string().nullable(),
  display_name: z.string(),
  about: z.string().nullable(),
  pronouns: z.string().nullable(),
  /** URL of the profile picture, or null. */
  picture: z.string().nullable(),
  ...socialShape,
});
export type PublicUser = z.infer<typeof publicUser>;

/** The logged-in user as they see themselves. */
export const currentUser = publicUser.extend({
  email: z.string(),
  email_verified: z.boolean(),
  role: z.enum(ROLES),
  /** Sign-up is complete once a handle is chosen. */
  signup_complete: z.boolean(),
  certified_18: z.boolean(),
  show_mature: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;
