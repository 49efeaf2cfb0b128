import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUSCRIPT_TITLE_MAX_LENGTH, MESSAGES } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import { postFile, waitForState } from './test-helpers.ts';
import { fitDerivedTitle } from './title.ts';
import { titleFromFileName } from './upload.ts';

const LONG_TITLE = Array.from({ length: 40 }, (_, i) => `Word${i}`).join(' '); // 270 characters

/** The title is the start of LONG_TITLE up to the end of a word, then an ellipsis. */
function expectCutAtWord(title: string): void {
  expect(title.length).toBeLessThanOrEqual(MANUSCRIPT_TITLE_MAX_LENGTH);
  expect(title.length).toBeGreaterThan(MANUSCRIPT_TITLE_MAX_LENGTH - 10);
  expect(title.endsWith('…')).toBe(true);
  const kept = title.slice(0, -1);
  expect(LONG_TITLE.startsWith(kept)).toBe(true);
  expect(LONG_TITLE[kept.length]).toBe(' ');
}

describe('a title the author did not type', () => {
  it('is kept as it is when it fits', () => {
    expect(fitDerivedTitle('  The   Salt Road ')).toBe('The Salt Road');
  });

  it('is cut at a word boundary with an ellipsis when too long', () => {
    const title = fitDerivedTitle(LONG_TITLE);
    expect(title.length).toBeLessThanOrEqual(MANUSCRIPT_TITLE_MAX_LENGTH);
    expectCutAtWord(title);
  });

  it('is cut where it must be when it is one enormous word', () => {
    const title = fitDerivedTitle('x'.repeat(500));
    expect(title).toBe(`${'x'.repeat(MANUSCRIPT_TITLE_MAX_LENGTH - 1)}…`);
  });

  it('from a long file name is cut at a word boundary too', () => {
    const title = titleFromFileName(`${LONG_TITLE.replace(/ /g, '_')}.docx`);
    expectCutAtWord(title);
  });
});

describe('titles on upload', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('refuses a typed title over the limit with a field error, writing nothing', async () => {
    const { client } = await loggedInClient(test);
    const [before] = await test.ctx.db.select({ n: count() }).from(schema.manuscripts);
    const response = await postFile(client, '/manuscript/document', 'book.md', '# One\n\nText.', {
      title: 'A'.repeat(MANUSCRIPT_TITLE_MAX_LENGTH + 1),
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe(MESSAGES.checkFormFields);
    expect(body.errors.title).toEqual([`Use at most ${MANUSCRIPT_TITLE_MAX_LENGTH} characters.`]);
    const [after] = await test.ctx.db.select({ n: count() }).from(schema.manuscripts);
    expect(after!.n).toBe(before!.n);
  });

  it('refuses a title over the limit on edit with a field error', async () => {
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'book.md', '# One\n\nText.');
    const id = upload.json().manuscript.id as number;
    await waitForState(client, upload.json().process_id);
    const response = await client.post(`/manuscript/${id}/edit`, {
      title: 'B'.repeat(MANUSCRIPT_TITLE_MAX_LENGTH + 1),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.title).toEqual([
      `Use at most ${MANUSCRIPT_TITLE_MAX_LENGTH} characters.`,
    ]);
  });

  it('takes a long document title cut at a word boundary with an ellipsis', async () => {
    const { client } = await loggedInClient(test);
    const markdown = `---\ntitle: ${LONG_TITLE}\n---\n\n# One\n\nText of the book.\n`;
    const upload = await postFile(client, '/manuscript/document', 'book.md', markdown);
    expect(upload.statusCode, upload.body).toBe(200);
    const state = await waitForState(client, upload.json().process_id);
    expect(state.status, state.message).toBe('SUCCESS');
    const title = state.manuscript!.title;
    expect(title.length).toBeLessThanOrEqual(MANUSCRIPT_TITLE_MAX_LENGTH);
    expectCutAtWord(title);
  });
});
