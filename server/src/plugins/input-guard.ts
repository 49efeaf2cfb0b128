import type { FastifyInstance } from 'fastify';
import { controlCharacterProblem } from '@margins/common';
import { badRequest, type FieldErrors } from '../lib/http-errors.ts';

/** Deeper than any form or JSON body of ours: such input is refused, not walked. */
const MAX_DEPTH = 64;
const NESTED_TOO_DEEP = 'This value is nested too deeply.';

/**
 * Field errors for every string (and every object key) in `input` that has control
 * characters or lone surrogates, under the name of the top-level field it sits in. Path and
 * query values are one line; body text may keep tab and line breaks. Iterative, so a deeply
 * nested body cannot overflow the stack.
 */
export function controlCharacterErrors(input: unknown, options: { multiLine: boolean }) {
  // No prototype: a field named "constructor" or "toString" must not find Object's own.
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  const add = (field: string, message: string) => {
    const messages = (errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };
  const stack: { value: unknown; field: string; depth: number }[] = [
    { value: input, field: '_', depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, field, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = controlCharacterProblem(value, options);
      if (problem) add(field, problem);
      continue;
    }
    if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_DEPTH) {
      add(field, NESTED_TOO_DEEP);
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const name = depth === 0 ? key : field;
      const keyProblem = controlCharacterProblem(key, { multiLine: false });
      // The key itself is unprintable: name the field by what can be shown.
      if (keyProblem) add(depth === 0 ? '_' : field, keyProblem);
      stack.push({ value: child, field: keyProblem && depth === 0 ? '_' : name, depth: depth + 1 });
    }
  }
  return errors;
}

/**
 * True for the common case, checked without walking: no input, or an object of string values
 * (path parameters, a query) where neither a key nor a value has a problem.
 */
function plainFlatInput(input: unknown, options: { multiLine: boolean }): boolean {
  if (input === undefined || input === null) return true;
  if (typeof input !== 'object' || Buffer.isBuffer(input) || Array.isArray(input)) return false;
  for (const key in input) {
    if (!Object.hasOwn(input, key)) continue;
    const value = (input as Record<string, unknown>)[key];
    if (typeof value !== 'string') return false;
    if (controlCharacterProblem(key, { multiLine: false })) return false;
    if (controlCharacterProblem(value, options)) return false;
  }
  return true;
}

/** Throws a 400 with field errors when `input` holds control characters (see above). */
export function assertPlainInput(input: unknown, options: { multiLine: boolean }): void {
  if (plainFlatInput(input, options)) return;
  const errors = controlCharacterErrors(input, options);
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

/**
 * Refuses control characters in every path parameter, query value and parsed body before any
 * route sees them (PostgreSQL refuses NUL in text; the rest breaks pages and headers), so a
 * new route is covered by default. Multipart bodies are read by their routes and checked
 * there (manuscripts/multipart.ts, profile/form.ts).
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Not async: it waits for nothing (a throw here is answered as the 400 it carries).
  app.addHook('preValidation', (request, _reply, done) => {
    assertPlainInput(request.params, { multiLine: false });
    assertPlainInput(request.query, { multiLine: false });
    if (request.body !== undefined) assertPlainInput(request.body, { multiLine: true });
    done();
  });
}
