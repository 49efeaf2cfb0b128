import { controlCharacterProblem, INPUT_MESSAGES, MESSAGES } from '@margins/common';
import { badRequest, HttpError } from './http-errors.ts';

/** At most this many text fields in the profile form (it has 17). */
export const PROFILE_FIELD_LIMIT = 40;
/** At most this many text fields in any other multipart form (the manuscript forms have 9). */
export const FORM_FIELD_LIMIT = 50;

/**
 * Names that reach Object.prototype when used as a key (`__proto__`, `constructor`,
 * `toString`, `hasOwnProperty`, `valueOf`…): no form of ours has such a field, and code
 * further on may index a plain object with the name.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Form errors go under this key when the field name itself cannot be shown or used. */
const FORM_KEY = '_';

/**
 * The text fields of a multipart form in a null-prototype map, refusing (400, with a message
 * a person can act on) prototype names, control characters in a name or value, and a repeated
 * field unless it is one of `listFields` (then its values become a list).
 */
export class FormFields {
  readonly values: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;

  constructor(private readonly listFields: ReadonlySet<string> = new Set()) {}

  add(name: string, value: string): void {
    checkFieldName(name);
    const problem = controlCharacterProblem(value, { multiLine: true });
    if (problem) throw badRequest({ [name]: [problem] });
    const existing = this.values[name];
    if (existing === undefined) {
      this.values[name] = value;
      return;
    }
    if (!this.listFields.has(name)) {
      const message = INPUT_MESSAGES.repeatedField(name);
      throw badRequest({ [name]: [message] }, message);
    }
    this.values[name] = [...(Array.isArray(existing) ? existing : [existing]), value];
  }
}

/** Refuses a field (or file field) name no form of ours can have. */
export function checkFieldName(name: string): void {
  if (controlCharacterProblem(name, { multiLine: false })) {
    throw badRequest({ [FORM_KEY]: [INPUT_MESSAGES.controlCharacters] });
  }
  if (PROTOTYPE_NAMES.has(name)) {
    throw reservedFieldName();
  }
}

/**
 * The 4xx for an error met while reading a multipart body: our own HttpErrors as they are,
 * too many fields or files, and every parser failure (a cut-off body, a missing boundary, a
 * bad header) as a 400 that says the form could not be read. `fileTooLarge` is the caller's
 * answer to a file over its limit.
 */
export function multipartError(
  error: unknown,
  options: { fieldLimit: number; fileTooLarge: HttpError },
): HttpError {
  if (error instanceof HttpError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return options.fileTooLarge;
  if (code === 'FST_FILES_LIMIT') {
    return badRequest({ [FORM_KEY]: [MESSAGES.oneFileAtATime] }, MESSAGES.oneFileAtATime);
  }
  // @fastify/multipart's own check of the same names (in Object.prototype).
  if (code === 'FST_PROTO_VIOLATION') return reservedFieldName();
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    const tooMany = INPUT_MESSAGES.tooManyFields(options.fieldLimit);
    return badRequest({ [FORM_KEY]: [tooMany] }, tooMany);
  }
  if (typeof message === 'string' && /boundary/i.test(message)) {
    return badRequest({ [FORM_KEY]: [INPUT_MESSAGES.noBoundary] }, INPUT_MESSAGES.noBoundary);
  }
  return badRequest({ [FORM_KEY]: [INPUT_MESSAGES.formUnreadable] }, INPUT_MESSAGES.formUnreadable);
}

function reservedFieldName(): HttpError {
  const message = INPUT_MESSAGES.reservedFieldName;
  return badRequest({ [FORM_KEY]: [message] }, message);
}
