import { z } from 'zod';
import type { FieldErrors } from '../api/client.ts';

/** Checks values against a shared schema; returns the field errors, or null when valid. */
export function validate(schema: z.ZodType, values: unknown): FieldErrors | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** The string values of a form, by field name (files and repeated names are left out). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && !(name in values)) values[name] = value;
  }
  return values;
}
