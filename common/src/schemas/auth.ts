import { z } from 'zod';
import { HANDLE_PATTERN, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
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

/**
 * Why a password of the right length is still refused (one character repeated, only
 * whitespace, the account's e-mail, its name before the @, or the handle; any letter case),
 * or null. The server also refuses common passwords (a list too large for the browser).
 */
export function passwordProblem(
  password: string,
  account: { email?: string | null; handle?: string | null },
): string | null {
  if (password.trim() === '') return MESSAGES.passwordWhitespace;
  if (new Set(password).size === 1) return MESSAGES.passwordOneCharacter;
  const lowered = password.trim().toLowerCase();
  const email = account.email?.trim().toLowerCase();
  if (email && (lowered === email || lowered === email.split('@')[0])) {
    return MESSAGES.passwordIsEmail;
  }
  const handle = account.handle?.trim().toLowerCase().replace(/^@/, '');
  if (handle && (lowered === handle || lowered === `@${handle}`)) return MESSAGES.passwordIsHandle;
  return null;
}

/** 200 of POST /auth/signup: the same for a new address and one that has an account. */
export const signupResponse = z.object({
  /** "Check your inbox…": a link was mailed (or, for a known address, a note to its owner). */
  message: z.string(),
  /** Where the client should go next (/auth/verify). */
  next: z.string(),
});
export type SignupResponse = z.infer<typeof signupResponse>;

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

/**
 * JSON answer of GET /auth/verify?token=: the address is confirmed; `user` only when this
 * browser is the one that signed up (or is already logged in as that account), which is then
 * logged in; any other browser gets null and a log-in page as `next`.
 */
export const verifyResponse = z.object({
  user: currentUser.nullable(),
  next: z.string(),
});
export type VerifyResponse = z.infer<typeof verifyResponse>;

export const verifyQuery = z.object({ token: z.string().min(1).max(200) });

/** "Send me a log-in link" (when log-in is throttled): the address, and where to go after. */
export const loginLinkBody = z.object({
  email,
  next: z.string().max(500).optional(),
});
export type LoginLinkBody = z.infer<typeof loginLinkBody>;

/** 200 of POST /auth/login/link: the same sentence whether or not the address has an account. */
export const loginLinkResponse = z.object({ ok: z.literal(true), message: z.string() });
export type LoginLinkResponse = z.infer<typeof loginLinkResponse>;

/** The one-time link's token, confirmed by a POST (a cross-site GET logs no one in). */
export const loginLinkConfirmBody = z.object({ token: z.string().min(1).max(200) });
export type LoginLinkConfirmBody = z.infer<typeof loginLinkConfirmBody>;
