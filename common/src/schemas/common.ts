import { z } from 'zod';
import { databaseId } from './fields.ts';

/** Every error body: a readable `error`, plus per-field messages on 400. */
export const errorBody = z.object({
  /** A sentence a person can act on. */
  error: z.string(),
  /** Field name → messages, on validation failures. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const okBody = z.object({ ok: z.literal(true) });
export type OkBody = z.infer<typeof okBody>;

/** A numeric id path parameter. */
export const idParam = (name: string) => z.object({ [name]: databaseId });
