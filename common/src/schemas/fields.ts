// Field schemas several schema files share (not exported from the package index).
import { z } from 'zod';
import { INPUT_MESSAGES } from '../messages.ts';

/** PostgreSQL's integer: the type of every id column and of the offsets and counts we store. */
export const INT4_MAX = 2_147_483_647;

/** An id as a path, a query or a form field spells it: digits ("1e3", " 7", "0x7" are not). */
const ID_DIGITS = /^\d{1,10}$/;

/**
 * A database id: a positive integer within PostgreSQL's integer, as a JSON number or as a string
 * of digits (a path, a query, a form field), so that neither 2^31 nor another spelling of a
 * number reaches a query. `message` is its field error.
 */
export function idField(message: string = INPUT_MESSAGES.badId) {
  // One message however many checks fail: the first failure stops the rest.
  const inRange = z
    .number({ error: message })
    .int({ error: message, abort: true })
    .positive({ error: message, abort: true })
    .max(INT4_MAX, message);
  const digits = z.string().regex(ID_DIGITS, message).transform(Number).pipe(inRange);
  return z.union([inRange, digits], { error: message });
}

/** A database id (idField with the general message). */
export const databaseId = idField();

/** An offset into a text we store (an integer column): 0 … INT4_MAX. */
export const storedOffset = z.number().int().min(0).max(INT4_MAX);

/** A checkbox as JSON (true/false) or as a form field ("true"/"false", "on"/"off", "1"/"0"). */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])], {
    error: 'Choose yes or no.',
  })
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

/** C0 control characters except tab, LF and CR, and DEL. */
// eslint-disable-next-line no-control-regex -- control characters are what is being refused
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** A UTF-16 surrogate without its pair (not text: it cannot be encoded as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;

/**
 * Why a string may not be stored, or null when it may: PostgreSQL refuses NUL in text, and
 * other control characters and lone surrogates break pages, headers and JSON elsewhere.
 * Multi-line text may keep tab, LF and CR; a one-line value (a name, a path or query value)
 * may not.
 */
export function controlCharacterProblem(
  value: string,
  options: { multiLine: boolean },
): string | null {
  if (CONTROL_CHARACTER.test(value) || LONE_SURROGATE.test(value)) {
    return INPUT_MESSAGES.controlCharacters;
  }
  if (!options.multiLine && LINE_BREAK_OR_TAB.test(value)) return INPUT_MESSAGES.lineBreaks;
  return null;
}

/** A string with no control characters (multi-line text: tab, LF and CR allowed). */
export const plainText = (options: { multiLine: boolean } = { multiLine: true }) =>
  z.string().superRefine((value, context) => {
    const problem = controlCharacterProblem(value, options);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** One line of text: no control characters, tab or line breaks. */
export const singleLineText = () => plainText({ multiLine: false });
