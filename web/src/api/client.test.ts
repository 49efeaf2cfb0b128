import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import { api, ApiError, apiRequest, needsCsrf, readCsrfToken, submitFailure } from './client.ts';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function lastCall(fetchMock: ReturnType<typeof vi.fn>): { url: string; init: RequestInit } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  return { url: String(call[0]), init: call[1] as RequestInit };
}

function headersOf(init: RequestInit): Record<string, string> {
  return init.headers as Record<string, string>;
}

describe('api client', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    document.cookie = 'other=1';
    document.cookie = 'csrf_token=token-from-cookie-1234567890';
    fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'csrf_token=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('sends the csrf_token cookie as x-csrf-token on a POST, with credentials and JSON', async () => {
    await api.post('/contact', { name: 'Ada' });
    const { url, init } = lastCall(fetchMock);
    expect(url).toBe('/contact');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(headersOf(init)['x-csrf-token']).toBe('token-from-cookie-1234567890');
    expect(headersOf(init).accept).toBe('application/json');
    expect(headersOf(init)['content-type']).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ name: 'Ada' }));
  });

  it('sends the header on PUT and DELETE too', async () => {
    await api.put('/profile/genres/3');
    expect(headersOf(lastCall(fetchMock).init)['x-csrf-token']).toBe(
      'token-from-cookie-1234567890',
    );
    await api.delete('/profile/genres/3');
    expect(headersOf(lastCall(fetchMock).init)['x-csrf-token']).toBe(
      'token-from-cookie-1234567890',
    );
  });

  it('leaves the header off a plain GET but sends it on the state-changing GETs', async () => {
    await api.get('/dev/mail');
    expect(headersOf(lastCall(fetchMock).init)['x-csrf-token']).toBeUndefined();
    await api.get('/profile/certify18');
    expect(headersOf(lastCall(fetchMock).init)['x-csrf-token']).toBe(
      'token-from-cookie-1234567890',
    );
    await api.get('/profile/generate/invite');
    expect(headersOf(lastCall(fetchMock).init)['x-csrf-token']).toBe(
      'token-from-cookie-1234567890',
    );
    expect(needsCsrf('GET', '/manuscript/survey/answer/12/approve')).toBe(true);
    expect(needsCsrf('GET', '/profile/get/12')).toBe(false);
  });

  it('sends FormData as multipart, without a JSON content type', async () => {
    const form = new FormData();
    form.set('handle', 'ada');
    await api.post('/profile/?format=json', form);
    const { init } = lastCall(fetchMock);
    expect(init.body).toBe(form);
    expect(headersOf(init)['content-type']).toBeUndefined();
    expect(headersOf(init)['x-csrf-token']).toBe('token-from-cookie-1234567890');
  });

  it('throws an ApiError with status, error and the errors map', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        error: 'Check your form fields',
        errors: {
          handle: ['That handle is taken. Try another.'],
          email: ['Enter a valid e-mail address.'],
        },
      }),
    );
    const failure = await apiRequest('/profile/', { method: 'POST', body: {} }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(400);
    expect(error.error).toBe('Check your form fields');
    expect(error.message).toBe('Check your form fields');
    expect(error.errors).toEqual({
      handle: ['That handle is taken. Try another.'],
      email: ['Enter a valid e-mail address.'],
    });
  });

  it('reads field errors from a {form: {errors}} body too', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, { form: { errors: { about: ['Too long'] } } }),
    );
    const error = (await api
      .post('/profile/?format=json', {})
      .catch((e: unknown) => e)) as ApiError;
    expect(error.errors).toEqual({ about: ['Too long'] });
    expect(error.error).toBe('Bad status 400');
  });

  it('says "Bad status {code}" when the body has no error', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>gateway</html>', { status: 502 }));
    const error = (await api.get('/dev/mail').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.error).toBe('Bad status 502');
    expect(error.errors).toEqual({});
  });

  it('resolves with the parsed JSON body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { messages: [{ id: 1 }] }));
    await expect(api.get('/dev/mail')).resolves.toEqual({ messages: [{ id: 1 }] });
  });

  it('reads the token among other cookies', () => {
    expect(readCsrfToken('a=1; csrf_token=abc%3D; b=2')).toBe('abc=');
    expect(readCsrfToken('a=1')).toBe('');
  });
});

describe('submitFailure', () => {
  it('names the fields when the server did, else repeats its sentence; a network error says so', () => {
    const fields = new ApiError(400, 'Bad request', { email: ['Enter an e-mail.'] });
    expect(submitFailure(fields)).toEqual({
      errors: { email: ['Enter an e-mail.'] },
      problem: MESSAGES.checkFormFields,
    });
    const sentence = new ApiError(401, MESSAGES.loginFailed);
    expect(submitFailure(sentence)).toEqual({ errors: {}, problem: MESSAGES.loginFailed });
    expect(submitFailure(new TypeError('Failed to fetch'))).toEqual({
      errors: {},
      problem: MESSAGES.serverCommunication,
    });
  });
});
