import { MESSAGES } from '@margins/common';

export type FieldErrors = Record<string, string[]>;

/** An error that becomes an HTTP answer: status, a readable message, and field errors on 400. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }
}

export const badRequest = (errors: FieldErrors, message: string = MESSAGES.checkFormFields) =>
  new HttpError(400, message, errors);
export const unauthorized = (message: string = MESSAGES.notLoggedIn) => new HttpError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooMany = (message: string = MESSAGES.tooManyRequests) => new HttpError(429, message);

/** Throws 403 (or 404 when the caller may not know the thing exists) unless allowed. */
export function authorize(allowed: boolean, hide = false): asserts allowed {
  if (!allowed) throw hide ? notFound() : forbidden();
}
