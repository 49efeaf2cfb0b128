import { createRequire } from 'node:module';
import { MESSAGES, passwordProblem } from '@margins/common';
import { badRequest } from '../../lib/http-errors.ts';

/**
 * zxcvbn-ts's list of common passwords (~49,000, from public breach corpora), lower-cased:
 * the ones attackers try first. Loaded and built on first use, so a start that never sets a
 * password does not pay for it (the package's dictionaries took ~10 MB of the idle server).
 */
let commonPasswords: ReadonlySet<string> | null = null;

function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    const { dictionary } = createRequire(import.meta.url)(
      '@zxcvbn-ts/language-common',
    ) as typeof import('@zxcvbn-ts/language-common');
    commonPasswords = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  }
  return commonPasswords.has(password.trim().toLowerCase());
}

/** Why this password may not be set for the account, or null (length is the schema's job). */
function passwordRefusal(
  password: string,
  account: { email?: string | null; handle?: string | null },
): string | null {
  return (
    passwordProblem(password, account) ??
    (isCommonPassword(password) ? MESSAGES.passwordCommon : null)
  );
}

/** Throws a 400 with the reason as the `password` field error; every place that sets one calls it. */
export function assertPasswordAllowed(
  password: string,
  account: { email?: string | null; handle?: string | null },
): void {
  const refusal = passwordRefusal(password, account);
  if (refusal) throw badRequest({ password: [refusal] });
}
