import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, MANUSCRIPT_FILE_FIELD } from '@margins/common';
import { count } from 'drizzle-orm';
import { schema } from '../db/index.ts';
import { personFor, type Person } from '../modules/invites/test-helpers.ts';
import { buildManuscript, multipartBody } from '../modules/manuscripts/test-helpers.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { PROFILE_FIELD_LIMIT } from './multipart-fields.ts';

let test: TestApp;
let author: Person;
let manuscriptId: number;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
  manuscriptId = (await buildManuscript(test.ctx.db, author.user)).id;
});
afterAll(() => test.close());

const text = '# Title\n\nA few words of a story.\n';
/** The three multipart forms, each with what makes a valid request of it. */
const forms = (): Array<{ url: string; fields: Record<string, string>; file?: boolean }> => [
  { url: '/profile/', fields: { display_name: 'Ada', handle: author.user.handle! } },
  { url: `/manuscript/${manuscriptId}/edit`, fields: { title: 'A title' } },
  { url: '/manuscript/document', fields: { title: 'A title' }, file: true },
];

async function send(url: string, payload: Buffer | string, contentType: string) {
  return author.client.request({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType },
  });
}

function expectClear400(response: { statusCode: number; body: string }, message?: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = JSON.parse(response.body) as { error: string; errors?: Record<string, string[]> };
  expect(body.error).toBeTruthy();
  if (message) expect([body.error, ...Object.values(body.errors ?? {}).flat()]).toContain(message);
}

async function manuscriptCount() {
  const [row] = await test.ctx.db.select({ n: count() }).from(schema.manuscripts);
  return row!.n;
}

describe('multipart forms refuse hostile field names and broken bodies with a 400', () => {
  for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']) {
    it(`a field named ${name}`, async () => {
      for (const form of forms()) {
        const before = await manuscriptCount();
        const { payload, headers } = multipartBody(
          { ...form.fields, [name]: 'x' },
          form.file ? { name: 'story.md', content: text } : undefined,
        );
        const response = await send(form.url, payload, headers['content-type']!);
        expectClear400(response, INPUT_MESSAGES.reservedFieldName);
        expect(await manuscriptCount()).toBe(before);
      }
    });
  }

  it('a repeated one-value field', async () => {
    for (const form of forms()) {
      const repeated = Object.keys(form.fields)[0]!;
      const value = Object.values(form.fields)[0]!;
      const { payload, headers } = multipartBody(
        { ...form.fields, [repeated]: [value, value] },
        form.file ? { name: 'story.md', content: text } : undefined,
      );
      const response = await send(form.url, payload, headers['content-type']!);
      expectClear400(response, INPUT_MESSAGES.repeatedField(repeated));
    }
  });

  it('a truncated body', async () => {
    for (const form of forms()) {
      const { payload, headers } = multipartBody(form.fields, {
        name: 'story.md',
        content: text,
        field: form.url === '/profile/' ? 'picture' : MANUSCRIPT_FILE_FIELD,
      });
      const cut = payload.subarray(0, payload.length - 30);
      const response = await send(form.url, cut, headers['content-type']!);
      expectClear400(response, INPUT_MESSAGES.formUnreadable);
    }
  });

  it('a multipart content type without a boundary', async () => {
    for (const form of forms()) {
      const { payload } = multipartBody(form.fields);
      const response = await send(form.url, payload, 'multipart/form-data');
      expectClear400(response, INPUT_MESSAGES.noBoundary);
    }
  });

  it('control characters in a field value or a field name', async () => {
    for (const form of forms()) {
      const field = Object.keys(form.fields)[0]!;
      for (const fields of [{ ...form.fields, [field]: 'A\u0000B' }, { 'na\u0001me': 'x' }]) {
        const { payload, headers } = multipartBody(
          fields,
          form.file ? { name: 'story.md', content: text } : undefined,
        );
        const response = await send(form.url, payload, headers['content-type']!);
        expectClear400(response, INPUT_MESSAGES.controlCharacters);
      }
    }
  });

  it('a profile form with more fields than any form of ours says so', async () => {
    const fields: Record<string, string> = { display_name: 'Ada' };
    for (let index = 0; index < PROFILE_FIELD_LIMIT + 5; index++) fields[`extra${index}`] = 'x';
    const { payload, headers } = multipartBody(fields);
    const response = await send('/profile/', payload, headers['content-type']!);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toBe(INPUT_MESSAGES.tooManyFields(PROFILE_FIELD_LIMIT));
  });

  it('still takes a valid form, with repeated genre ids as a list', async () => {
    const { payload, headers } = multipartBody({ title: 'Kept', genre_ids: ['', ''] });
    const response = await send(
      `/manuscript/${manuscriptId}/edit`,
      payload,
      headers['content-type']!,
    );
    expect(response.statusCode, response.body).toBe(200);
    const profile = multipartBody({ display_name: 'Ada', handle: author.user.handle! });
    const saved = await send('/profile/', profile.payload, profile.headers['content-type']!);
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
