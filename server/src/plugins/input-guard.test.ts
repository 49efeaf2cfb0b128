import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES } from '@margins/common';
import { personFor, type Person } from '../modules/invites/test-helpers.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { controlCharacterErrors } from './input-guard.ts';

let test: TestApp;
let reader: Person;

beforeAll(async () => {
  test = await createTestApp();
  reader = await personFor(test);
});
afterAll(() => test.close());

describe('control characters in a path or query value', () => {
  // Each was a 500 (PostgreSQL refuses NUL in text) before the guard.
  const cases: Array<{ method: 'GET' | 'POST'; url: string; field: string }> = [
    { method: 'GET', url: '/share/abc%00def', field: 'code' },
    { method: 'POST', url: '/share/abc%00def/request', field: 'code' },
    { method: 'GET', url: '/media/abc%00def', field: 'media_id' },
    { method: 'GET', url: '/profile/lookup?q=ab%00c', field: 'q' },
    { method: 'GET', url: '/auth/invite/landing/AB%00CD', field: 'invite_code' },
  ];

  for (const { method, url, field } of cases) {
    it(`${method} ${url} is a 400 naming the field, logged in and anonymous`, async () => {
      for (const client of [reader.client, new TestClient(test.app)]) {
        const response = await client.request({
          method,
          url,
          ...(method === 'POST' ? { json: {} } : {}),
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().errors[field]).toEqual([INPUT_MESSAGES.controlCharacters]);
      }
    });
  }

  it('refuses a line break in a query value as one-line text', async () => {
    const response = await reader.client.get('/profile/lookup?q=ab%0Acd');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.q).toEqual([INPUT_MESSAGES.lineBreaks]);
  });

  it('refuses a lone surrogate (an unpaired %ED%A0%80 decodes to U+FFFD, a JSON escape does not)', async () => {
    const response = await reader.client.post('/contact', {
      name: 'Zed',
      email: 'zed@example.test',
      subject: 'Half a pair \ud800 here',
      message: 'Hello',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.subject).toEqual([INPUT_MESSAGES.controlCharacters]);
  });
});

describe('control characters in a JSON body', () => {
  it('refuses NUL in any text field with a field error, keeping line breaks in text', async () => {
    const response = await reader.client.post('/contact', {
      name: 'Zed\u0000',
      email: 'zed@example.test',
      subject: 'Hello',
      message: 'Two\nlines\tand a tab',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ name: [INPUT_MESSAGES.controlCharacters] });
  });
});

describe('one-line fields (the shared singleLineText schema)', () => {
  it('refuse line breaks and tabs in a title, a display name and a contact subject', async () => {
    const manuscript = await buildManuscript(test.ctx.db, reader.user);
    const title = await reader.client.post(`/manuscript/${manuscript.id}/edit`, {
      title: 'Two\nlines',
    });
    expect(title.statusCode).toBe(400);
    expect(title.json().errors.title).toEqual([INPUT_MESSAGES.lineBreaks]);
    const profile = await reader.client.post('/profile/', {
      display_name: 'Tab\there',
      handle: reader.user.handle,
    });
    expect(profile.statusCode).toBe(400);
    expect(profile.json().errors.display_name).toEqual([INPUT_MESSAGES.lineBreaks]);
    const contact = await reader.client.post('/contact', {
      name: 'Zed',
      email: 'zed@example.test',
      subject: 'Line\r\nbreak',
      message: 'Line\r\nbreaks are fine here.',
    });
    expect(contact.statusCode).toBe(400);
    expect(contact.json().errors).toEqual({ subject: [INPUT_MESSAGES.lineBreaks] });
  });
});

describe('controlCharacterErrors', () => {
  it('names the top-level field of a nested value and checks keys', () => {
    expect(controlCharacterErrors({ a: { b: ['ok', 'x\u0007'] } }, { multiLine: true })).toEqual({
      a: [INPUT_MESSAGES.controlCharacters],
    });
    expect(controlCharacterErrors({ 'k\u0000': 'v' }, { multiLine: true })).toEqual({
      _: [INPUT_MESSAGES.controlCharacters],
    });
    expect(controlCharacterErrors({ a: 'DEL\u007F' }, { multiLine: true })).toEqual({
      a: [INPUT_MESSAGES.controlCharacters],
    });
    expect(controlCharacterErrors({ a: 'tab\tnew\r\nline 😀' }, { multiLine: true })).toEqual({});
  });

  it('refuses a value nested deeper than any form of ours, without recursion', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(controlCharacterErrors({ a: deep }, { multiLine: true }).a).toHaveLength(1);
  });
});
