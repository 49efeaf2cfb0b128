import type { z } from 'zod';
import type { FieldErrors } from './http-errors.ts';

/**
 * zod issues → the errors map of API.md (field → messages): the first path segment names the
 * field, `_` the whole form. For forms checked in a service or a socket handler (the routes'
 * schemas go through plugins/errors.ts).
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}
