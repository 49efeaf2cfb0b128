import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS } from '../config.ts';
import {
  fixture,
  multipartBody,
  postFile,
  waitForState,
} from '../modules/manuscripts/test-helpers.ts';
import { loggedInClient } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

// Workers poll only every 30 s here: a job must still start at once, because the process that
// enqueued it wakes its workers as soon as the transaction has committed.
const SLOW_POLLING = { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 30 };

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: SLOW_POLLING });
});
afterAll(async () => {
  await test?.close();
});

describe('job pickup', () => {
  it('starts a job right after the commit that sent it, not at the next poll', async () => {
    const { client } = await loggedInClient(test);
    for (let upload = 0; upload < 2; upload++) {
      const started = Date.now();
      const response = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
      expect(response.statusCode, response.body).toBe(200);
      const state = await waitForState(client, response.json().process_id, 20_000);
      expect(state.status).toBe('SUCCESS');
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  });
});

describe('the request behind a job', () => {
  it('is kept with the job it sent, and said in the answer', async () => {
    const { client } = await loggedInClient(test);
    const requestId = `upload-${Date.now()}`;
    const response = await postFile(client, '/manuscript/document', 'b.md', fixture('small.md'));
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const { payload, headers } = multipartBody({}, { name: 'c.md', content: fixture('small.md') });
    const traced = await client.request({
      method: 'POST',
      url: '/manuscript/document',
      payload,
      headers: { ...headers, 'x-request-id': requestId },
    });
    expect(traced.statusCode, traced.body).toBe(200);
    expect(traced.headers['x-request-id']).toBe(requestId);
    const { rows } = (await test.ctx.db.execute(
      sql`SELECT data FROM pgboss.job WHERE name = 'convert-document'
          AND data->>'conversionId' = ${String(traced.json().process_id)}`,
    )) as unknown as { rows: Array<{ data: Record<string, unknown> }> };
    expect(rows.map((row) => row.data._requestId)).toEqual([requestId]);
  });
});
