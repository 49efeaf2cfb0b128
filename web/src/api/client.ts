import { CSRF_COOKIE, CSRF_HEADER, MESSAGES, needsCsrf } from '@margins/common';

/** Field name → messages, as a 400 answer carries them (API.md). */
export type FieldErrors = Record<string, string[]>;

/** A non-success answer: its status, the readable `error` and the per-field `errors`. */
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;
  readonly errors: FieldErrors;
  readonly body: unknown;

  constructor(status: number, error: string, errors: FieldErrors = {}, body: unknown = null) {
    super(error);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.errors = errors;
    this.body = body;
  }
}

// Which calls need the CSRF header: one list, shared with the server's check.
export { needsCsrf };

/** The value of the readable csrf_token cookie the server sets, or ''. */
export function readCsrfToken(cookies: string = document.cookie): string {
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return '';
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asFieldErrors(value: unknown): FieldErrors {
  if (!isRecord(value)) return {};
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) errors[field] = messages.map(String);
    else if (typeof messages === 'string') errors[field] = [messages];
  }
  return errors;
}

/** Field errors of a body: `errors`, or `form.errors` as the profile form answers. */
export function fieldErrorsOf(body: unknown): FieldErrors {
  if (!isRecord(body)) return {};
  if (isRecord(body.errors)) return asFieldErrors(body.errors);
  if (isRecord(body.form)) return asFieldErrors(body.form.errors);
  return {};
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  return text;
}

/**
 * Calls the Margins server: cookies included, JSON in and out, the CSRF header on every
 * state-changing call. Resolves with the parsed body; a non-success status throws ApiError.
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (needsCsrf(method, path)) headers[CSRF_HEADER] = readCsrfToken();

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, MESSAGES.serverCommunication);
  }
  const payload = await readBody(response);
  if (!response.ok) {
    const message =
      isRecord(payload) && typeof payload.error === 'string' && payload.error
        ? payload.error
        : MESSAGES.badStatus(response.status);
    throw new ApiError(response.status, message, fieldErrorsOf(payload), payload);
  }
  return payload as T;
}

/** Shorthands for the usual verbs. */
export const api = {
  get: <T = unknown>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions, 'method'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions, 'method'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = unknown>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** The readable message of any thrown value. */
/**
 * What a form shows after a failed submit: the server's field errors under their fields, and
 * one line above the form ("Please check your fields" when fields are named, else the server's
 * sentence; a network failure says so).
 */
export function submitFailure(error: unknown): { errors: FieldErrors; problem: string } {
  if (!(error instanceof ApiError)) return { errors: {}, problem: MESSAGES.serverCommunication };
  const named = Object.keys(error.errors).length > 0;
  return { errors: error.errors, problem: named ? MESSAGES.checkFormFields : error.error };
}

export function errorMessage(error: unknown, fallback: string = MESSAGES.serverError): string {
  if (error instanceof ApiError) return error.error;
  return fallback;
}
