import { z } from 'zod';
import { HANDLE_PATTERN, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { currentUser } from './user.ts';

const email = z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address.'));

export const signupBody = z.object({
  email,
  /** At least PASSWORD_MIN_LENGTH characters. */
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(200, 'Use at most 200 characters.'),
  display_name: z
    .string()
    .trim()
    .min(1, 'Enter a display name.')
    .max(80, 'Use at most 80 characters.'),
  /** Where to go after verifying (a path inside the app). */
  next: z.string().optional(),
});
export type SignupBody = z.infer<typeof signupBody>;

export const loginBody = z.object({
  email,
  password: z.string().min(1, 'Enter your password.').max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const handleSchema = z
  .string()
  .trim()
  .regex(HANDLE_PATTERN, '3 to 30 letters, digits or underscores.');

export const completeSignupBody = z.object({
  handle: handleSchema,
  display_name: z
    .string()
    .trim()
    .min(1, 'Enter a display name.')
    .max(80, 'Use at most 80 characters.'),
  /** Required when platform invites are enabled. */
  invite_code: z.string().trim().toUpperCase().max(64).optional(),
});
export type CompleteSignupBody = z.infer<typeof completeSignupBody>;

export const authResponse = z.object({
  user: currentUser,
  /** Where the client should go next. */
  next: z.string(),
});
export type AuthResponse = z.infer<typeof authResponse>;

export const verifyQuery = z.object({ token: z.string().min(1).max(200) });

/** "Send me a log-in link" (when log-in is throttled): the address, and where to go after. */
export const loginLinkBody = z.object({
  email,
  next: z.string().max(500).optional(),
});
export type LoginLinkBody = z.infer<typeof loginLinkBody>;

/** The one-time link's token, confirmed by a POST (a cross-site GET logs no one in). */
export const loginLinkConfirmBody = z.object({ token: z.string().min(1).max(200) });
export type LoginLinkConfirmBody = z.infer<typeof loginLinkConfirmBody>;
