import { moderationReason } from '@margins/common';
import { badRequest } from '../../lib/http-errors.ts';

/** The reason as stored (trimmed, one line), or 400 {errors: {reason: [...]}}. */
export function parseReason(reason: unknown): string {
  const parsed = moderationReason.safeParse(typeof reason === 'string' ? reason : '');
  if (!parsed.success) {
    throw badRequest({ reason: parsed.error.issues.map((issue) => issue.message) });
  }
  return parsed.data;
}
