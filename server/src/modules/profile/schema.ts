import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileForm } from '@margins/common';

/** The profile form as OpenAPI shows it: the fields plus the optional picture file. */
export const profileFormDocumentedBody = profileForm.extend({
  /** PNG, JPEG, WebP or GIF (judged by its bytes), at most PICTURE_MAX_BYTES. Multipart only. */
  picture: z.file().optional(),
});

export const profileFormQuery = z.object({
  /** Accepted for the old clients' `?format=json`; the answer is JSON either way. */
  format: z.enum(['json']).optional(),
});

/** The body types the profile form accepts. */
export const PROFILE_FORM_CONTENT_TYPES = [
  'multipart/form-data',
  'application/json',
  'application/x-www-form-urlencoded',
];

/**
 * Validates params and query as usual but leaves the body alone: a multipart body only
 * exists once the handler reads its parts, so the handler validates it (readProfileInput).
 * The body schema is still declared, for the OpenAPI document.
 */
export function skipBodyValidation<T>(
  route: Parameters<FastifySchemaCompiler<T>>[0],
): ReturnType<FastifySchemaCompiler<T>> {
  if (route.httpPart === 'body') return (data: unknown) => ({ value: data });
  // Fastify types `schema` as the whole route schema; at run time it is the part's zod schema.
  return validatorCompiler({ ...route, schema: route.schema as unknown as z.ZodType });
}
