// The conversion report (issue 10 item 8): stored with the version, answered by the state call
// once the upload is done and by GET /manuscript/:id/report, to the author only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import { postFile, waitForState } from './test-helpers.ts';

// A 1×1 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const MARKDOWN = [
  '# Chapter One',
  'The valley at dawn.[^1]',
  `![A map of the valley](data:image/png;base64,${PNG_BASE64})`,
  '![A far tower](https://tracker.example/tower.png) ![A near tower](http://tracker.example/near.png)',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '# Chapter Two',
  'Where <math><msup><mi>x</mi><mn>2</mn></msup></math> grows.',
  '[^1]: A note.',
].join('\n\n');

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
});
afterAll(async () => {
  await test?.close();
});

describe('the conversion report', () => {
  it('comes with the finished upload and stays with the draft, for its author only', async () => {
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'valley.md', MARKDOWN);
    expect(upload.statusCode, upload.body).toBe(200);
    const state = await waitForState(client, upload.json().process_id);
    expect(state.status).toBe('SUCCESS');
    const expected = {
      words: state.manuscript?.words,
      chapters: 2,
      images: 1,
      footnotes: 1,
      tables: 1,
      formulas: 1,
      notes: [
        '2 pictures on other websites were not loaded: we never fetch pictures from elsewhere. Put them into the document itself to show them.',
      ],
    };
    expect(state.report).toEqual(expected);

    const id = upload.json().manuscript.id as number;
    const report = await client.get(`/manuscript/${id}/report`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({
      report: expected,
      file_name: 'valley.md',
      source_format: 'md',
    });

    // The reader shows the stored picture and marks the remote ones.
    const reader = await client.get(`/manuscript/document/reader/${id}`, {
      headers: { accept: 'application/json' },
    });
    const html = reader.json().html as string;
    expect(html).toMatch(/<img src="\/media\/[^"]+" alt="A map of the valley">/);
    expect(html).toContain(
      'aria-label="Picture not loaded (it is on another website): A far tower"',
    );
    expect(html).not.toContain('tracker.example');

    const { client: stranger } = await loggedInClient(test);
    expect((await stranger.get(`/manuscript/${id}/report`)).statusCode).toBe(404);
    expect((await stranger.get(`/manuscript/999999/report`)).statusCode).toBe(404);
  });
});
