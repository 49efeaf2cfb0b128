/**
 * The platform invite code someone arrived with, kept in the browser across the sign-up
 * and e-mail verification steps (the verification link leads to complete-signup without it).
 */
const KEY = 'margins-invite-code';

export function rememberInviteCode(code: string): void {
  try {
    window.localStorage.setItem(KEY, code);
  } catch {
    // Storage blocked: the code still travels in the URL.
  }
}

export function recalledInviteCode(): string {
  try {
    return window.localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetInviteCode(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
