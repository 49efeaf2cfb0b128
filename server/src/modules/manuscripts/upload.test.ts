import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUSCRIPT_UPLOAD_MAX_BYTES, MESSAGES, type ReaderResponse } from '@margins/common';
import { schema } from '../../db/index.ts';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildGenres, loggedInClient } from '../../test/factories.ts';
import { FILE_TOO_LARGE_MESSAGE } from './multipart.ts';
import { fixture, multipartBody, postFile, waitForState } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
});
afterAll(async () => {
  await test?.close();
});

const expected = JSON.parse(fixture('small.json').toString('utf8')) as {
  title: string;
  words: number;
  headings: Array<{ level: number; text: string }>;
  sceneBreaks: number;
  emphasis: number;
};

async function rowCounts() {
  const [manuscripts] = await test.ctx.db.select({ n: count() }).from(schema.manuscripts);
  const [media] = await test.ctx.db.select({ n: count() }).from(schema.media);
  const [conversions] = await test.ctx.db.select({ n: count() }).from(schema.documentConversions);
  return { manuscripts: manuscripts!.n, media: media!.n, conversions: conversions!.n };
}

describe('upload → job → reader, for every format', () => {
  it.each(['docx', 'odt', 'rtf', 'md', 'html', 'txt'])(
    'converts small.%s end to end',
    async (format) => {
      const { client, user } = await loggedInClient(test);
      const response = await postFile(
        client,
        '/manuscript/document',
        `small.${format}`,
        fixture(`small.${format}`),
      );
      expect(response.statusCode, response.body).toBe(200);
      const uploaded = response.json();
      expect(uploaded.manuscript.inking).toBe(true);
      expect(uploaded.manuscript.title).toBe('small');
      expect(uploaded.manuscript.user_id).toBe(user.id);
      expect(uploaded.manuscript.author).not.toHaveProperty('email');
      expect(uploaded.process_id).toMatch(/^[0-9a-f-]{36}$/);

      const state = await waitForState(client, uploaded.process_id);
      expect(state.status, state.message).toBe('SUCCESS');
      expect(state.message).toBe(MESSAGES.manuscriptSaved);
      expect(state.manuscript?.inking).toBe(false);

      const reader = await client.get(`/manuscript/document/reader/${uploaded.manuscript.id}`);
      expect(reader.statusCode, reader.body).toBe(200);
      const body = reader.json() as ReaderResponse;
      // Title from the document, as the author gave none (plain text has no markup: any case).
      expect(body.manuscript.title.toLowerCase()).toBe(expected.title.toLowerCase());
      expect(body.words).toBeGreaterThan(expected.words * 0.98);
      expect(body.words).toBeLessThan(expected.words * 1.02);
      expect(body.manuscript.words).toBe(body.words);
      expect(body.toc.map(({ level, text }) => ({ level, text: text.toLowerCase() }))).toEqual(
        expected.headings.map(({ level, text }) => ({ level, text: text.toLowerCase() })),
      );
      for (const entry of body.toc) expect(body.html).toContain(`id="${entry.id}"`);
      expect(body.html.match(/<hr[^>]*scene-break/g)?.length).toBe(expected.sceneBreaks);
      if (format !== 'txt') {
        expect(body.html.match(/<em>/g)?.length).toBe(expected.emphasis);
      }
      expect(body.html).not.toMatch(/<script|onerror=|javascript:/i);

      // The original is kept with the version; images are served from our store.
      const [version] = await test.ctx.db
        .select()
        .from(schema.manuscriptVersions)
        .where(eq(schema.manuscriptVersions.manuscriptId, uploaded.manuscript.id));
      expect(version).toMatchObject({
        number: 1,
        sourceFormat: format,
        fileName: `small.${format}`,
      });
      const media = await test.ctx.db
        .select({
          id: schema.media.id,
          contentType: schema.media.contentType,
          manuscriptId: schema.media.manuscriptId,
        })
        .from(schema.media)
        .where(eq(schema.media.manuscriptId, uploaded.manuscript.id));
      expect(media.map((row) => row.id)).toContain(version!.originalMediaId);
      const imageIds = [...body.html.matchAll(/<img src="\/media\/([^"]+)"/g)].map((m) => m[1]);
      if (['docx', 'odt', 'rtf'].includes(format)) expect(imageIds.length).toBeGreaterThan(0);
      for (const imageId of imageIds) {
        expect(media.find((row) => row.id === imageId)?.contentType).toMatch(/^image\//);
      }
    },
  );

  it('keeps the title and form fields given with the file', async () => {
    const { client } = await loggedInClient(test);
    const genres = await buildGenres(test.ctx.db, `poetry-${Date.now()}`, ['Haiku', 'Sonnet']);
    const { payload, headers } = multipartBody(
      {
        title: 'My own title',
        summary: 'A short summary.',
        category: 'poetry',
        visibility: 'public',
        nsfw: 'true',
        genre_ids: genres.map((genre) => String(genre.id)),
      },
      { name: 'small.md', content: fixture('small.md') },
    );
    const response = await client.request({
      method: 'POST',
      url: '/manuscript/document',
      payload,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const state = await waitForState(client, response.json().process_id);
    expect(state.status).toBe('SUCCESS');
    expect(state.manuscript).toMatchObject({
      title: 'My own title',
      summary: 'A short summary.',
      category: 'poetry',
      visibility: 'public',
      nsfw: true,
      private_comments: false,
      genre_ids: genres.map((genre) => genre.id).sort((a, b) => a - b),
      genres: [
        { id: genres[0]!.id, name: 'Haiku' },
        { id: genres[1]!.id, name: 'Sonnet' },
      ],
    });
  });
});

/** High bytes in no pattern any encoding makes (text-encoding.test.ts refuses the same). */
function undecodable(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let seed = 12345;
  for (let i = 0; i < length; i += 1) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    bytes[i] = i % 7 === 6 ? 0x20 : 0x80 + ((seed >>> 16) & 0x7f);
  }
  return bytes;
}
const ENCODING_UNKNOWN = new RegExp(
  MESSAGES.textEncodingUnknown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
);

describe('files we cannot take: a clear 4xx and nothing left behind', () => {
  const cases: Array<[string, string, Buffer | string, number, RegExp]> = [
    [
      'a .docx that is not a zip',
      'novel.docx',
      'just some text, not a zip',
      400,
      /not a valid DOCX/,
    ],
    ['a PDF renamed .txt', 'novel.txt', '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n', 415, /is a PDF/],
    ['an unknown extension', 'novel.pages', 'Once upon a time.', 415, /cannot convert/],
    ['an empty file', 'novel.md', '', 400, /is empty/],
    ['an image', 'cover.txt', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 415, /image/],
    // Issue 10: refused at upload with the scorer's message, not only as a failed conversion.
    ['text in no encoding we can tell', 'novel.txt', undecodable(4000), 415, ENCODING_UNKNOWN],
    ['Markdown in no encoding we can tell', 'novel.md', undecodable(4000), 415, ENCODING_UNKNOWN],
    ['HTML in no encoding we can tell', 'novel.html', undecodable(4000), 415, ENCODING_UNKNOWN],
  ];

  it.each(cases)('refuses %s', async (_label, name, content, status, message) => {
    const { client } = await loggedInClient(test);
    const before = await rowCounts();
    const response = await postFile(client, '/manuscript/document', name, content);
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json();
    expect(body.error).toMatch(message);
    expect(body.errors.docxfile).toEqual([body.error]);
    expect(await rowCounts()).toEqual(before);
  });

  it('asks for a file when none is sent (multipart or JSON)', async () => {
    const { client } = await loggedInClient(test);
    const before = await rowCounts();
    const { payload, headers } = multipartBody({ title: 'No file' });
    const multipart = await client.request({
      method: 'POST',
      url: '/manuscript/document',
      payload,
      headers,
    });
    expect(multipart.statusCode).toBe(400);
    expect(multipart.json().errors.docxfile).toEqual(['Choose a file to upload.']);
    const json = await client.post('/manuscript/document', { title: 'No file' });
    expect(json.statusCode).toBe(400);
    expect(await rowCounts()).toEqual(before);
  });

  it('takes one file at a time', async () => {
    const { client } = await loggedInClient(test);
    const before = await rowCounts();
    const { payload, headers } = multipartBody({}, { name: 'a.md', content: '# A\n\nText.' }, [
      { name: 'b.md', content: '# B\n\nText.' },
    ]);
    const response = await client.request({
      method: 'POST',
      url: '/manuscript/document',
      payload,
      headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(MESSAGES.oneFileAtATime);
    expect(await rowCounts()).toEqual(before);
  });

  it('answers 413 with a readable message over 50 MB', async () => {
    const { client } = await loggedInClient(test);
    const before = await rowCounts();
    const big = Buffer.alloc(MANUSCRIPT_UPLOAD_MAX_BYTES + 1, 'a');
    const response = await postFile(client, '/manuscript/document', 'big.txt', big);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe(FILE_TOO_LARGE_MESSAGE);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses bad form fields before writing anything', async () => {
    const { client } = await loggedInClient(test);
    const before = await rowCounts();
    const response = await postFile(client, '/manuscript/document', 'ok.md', '# Fine\n\nText.', {
      category: 'sci-fi',
      visibility: 'everyone',
      genre_ids: '99999',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors).sort()).toEqual(['category', 'visibility']);
    const unknownGenre = await postFile(client, '/manuscript/document', 'ok.md', '# Fine', {
      genre_ids: '99999',
    });
    expect(unknownGenre.statusCode).toBe(400);
    expect(unknownGenre.json().errors.genre_ids).toEqual(['Choose genres from the list.']);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses anonymous uploads (401) and uploads without the CSRF header (403)', async () => {
    const before = await rowCounts();
    const anonymous = new TestClient(test.app);
    const response = await postFile(anonymous, '/manuscript/document', 'a.md', '# A');
    expect(response.statusCode).toBe(401);
    const { client } = await loggedInClient(test);
    const { payload, headers } = multipartBody({}, { name: 'a.md', content: '# A' });
    const noCsrf = await client.request({
      method: 'POST',
      url: '/manuscript/document',
      payload,
      headers,
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(await rowCounts()).toEqual(before);
  });
});
