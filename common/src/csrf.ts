/**
 * The GET routes that change state and so need the CSRF header like a write does (API.md:
 * certify18, generate an invite code, approve a survey answer), in Fastify's route syntax. The
 * server's CSRF check and the web client's fetch both read this one list.
 */
export const STATE_CHANGING_GETS = [
  '/profile/certify18',
  '/profile/generate/invite',
  '/manuscript/survey/answer/:survey_answer_id/approve',
] as const;

/** A route of STATE_CHANGING_GETS as a pattern for a concrete path (`:param` = one segment). */
const patterns = STATE_CHANGING_GETS.map(
  (route) => new RegExp(`^${route.replace(/:[a-z_]+/g, '[^/]+')}/?$`),
);

/** True when a call (method and path, query allowed) must carry the CSRF header. */
export function needsCsrf(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (upper !== 'GET' && upper !== 'HEAD') return true;
  const pathname = new URL(path, 'http://margins.invalid').pathname;
  return patterns.some((pattern) => pattern.test(pathname));
}
