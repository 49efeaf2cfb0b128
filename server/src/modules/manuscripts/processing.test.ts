import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import { buildApp } from '../../app.ts';
import { DEFAULT_JOB_SETTINGS, type Config } from '../../config.ts';
import { schema } from '../../db/index.ts';
import type { ConversionOutcome } from '../../jobs/conversion-pool.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import { fixture, postFile, waitForState } from './test-helpers.ts';

const FAST_JOBS = {
  ...DEFAULT_JOB_SETTINGS,
  pollingSeconds: 0.5,
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 1,
  superviseSeconds: 1,
};

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: FAST_JOBS, wordLimitFree: 3000 });
});
afterAll(async () => {
  await test?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SMALL_WORDS = 1969;

async function conversionRow(id: string) {
  const [row] = await test.ctx.db
    .select()
    .from(schema.documentConversions)
    .where(eq(schema.documentConversions.id, id));
  return row!;
}

async function mediaOf(manuscriptId: number) {
  const [row] = await test.ctx.db
    .select({ n: count() })
    .from(schema.media)
    .where(eq(schema.media.manuscriptId, manuscriptId));
  return row!.n;
}

async function manuscriptExists(id: number) {
  const [row] = await test.ctx.db
    .select({ id: schema.manuscripts.id })
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.id, id));
  return row !== undefined;
}

describe('word limit', () => {
  it('counts the live manuscripts plus the new one; over it the upload is removed', async () => {
    const { client } = await loggedInClient(test);
    const first = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    expect((await waitForState(client, first.json().process_id)).status).toBe('SUCCESS');

    const second = await postFile(client, '/manuscript/document', 'b.md', fixture('small.md'));
    const secondId = second.json().manuscript.id as number;
    const state = await waitForState(client, second.json().process_id);
    expect(state).toEqual({
      status: 'OVER_WORD_LIMIT',
      message: MESSAGES.overWordLimit,
      manuscript: null,
    });
    expect(await manuscriptExists(secondId)).toBe(false);
    expect(await mediaOf(secondId)).toBe(0);

    // Archived manuscripts do not count.
    const archived = await client.delete(`/manuscript/${first.json().manuscript.id}`);
    expect(archived.statusCode).toBe(200);
    const third = await postFile(client, '/manuscript/document', 'c.md', fixture('small.md'));
    expect((await waitForState(client, third.json().process_id)).status).toBe('SUCCESS');
  });

  it('counts a new draft instead of the one it replaces', async () => {
    const { client } = await loggedInClient(test);
    const first = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    await waitForState(client, first.json().process_id);
    const id = first.json().manuscript.id as number;
    const draft = await postFile(
      client,
      `/manuscript/${id}/document`,
      'a2.md',
      fixture('small.md'),
    );
    expect(draft.statusCode, draft.body).toBe(200);
    const state = await waitForState(client, draft.json().process_id);
    expect(state.status).toBe('SUCCESS');
    expect(state.manuscript?.words).toBe(SMALL_WORDS);
  });

  it('refuses a draft over the limit but keeps the manuscript and its current draft', async () => {
    const { client } = await loggedInClient(test);
    const first = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    await waitForState(client, first.json().process_id);
    const id = first.json().manuscript.id as number;
    const doubled = `${fixture('small.md').toString('utf8')}\n\n${fixture('small.md').toString('utf8')}`;
    const draft = await postFile(client, `/manuscript/${id}/document`, 'long.md', doubled);
    const state = await waitForState(client, draft.json().process_id);
    expect(state.status).toBe('OVER_WORD_LIMIT');
    expect(state.message).toBe(MESSAGES.overWordLimit);
    expect(state.manuscript).toMatchObject({ id, inking: false, words: SMALL_WORDS });
    const reader = await client.get(`/manuscript/document/reader/${id}`);
    expect(reader.json().words).toBe(SMALL_WORDS);
    // The refused draft's original is not kept: the first draft's original and its picture are.
    expect((await conversionRow(draft.json().process_id)).originalMediaId).toBeNull();
    expect(await mediaOf(id)).toBe(2);
  });
});

describe('failures end as FAILURE, never stuck', () => {
  it('retries a job that throws, with backoff, then fails it and removes the upload', async () => {
    const convert = vi
      .spyOn(test.ctx.converter, 'convert')
      .mockRejectedValue(new Error('the worker thread died'));
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    const id = upload.json().manuscript.id as number;
    const state = await waitForState(client, upload.json().process_id);
    expect(state).toEqual({ status: 'FAILURE', message: MESSAGES.processFailed, manuscript: null });
    expect(convert).toHaveBeenCalledTimes(FAST_JOBS.retryLimit + 1);
    expect((await conversionRow(upload.json().process_id)).attempts).toBe(FAST_JOBS.retryLimit + 1);
    expect(await manuscriptExists(id)).toBe(false);
    expect(await mediaOf(id)).toBe(0);
  });

  it('recovers when a retry succeeds', async () => {
    const real = test.ctx.converter.convert.bind(test.ctx.converter);
    vi.spyOn(test.ctx.converter, 'convert')
      .mockRejectedValueOnce(new Error('a hiccup'))
      .mockImplementation(real);
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    const state = await waitForState(client, upload.json().process_id);
    expect(state.status).toBe('SUCCESS');
    expect((await conversionRow(upload.json().process_id)).attempts).toBe(2);
  });

  it('fails at once, with the converter’s message, when the document cannot be converted', async () => {
    const convert = vi.spyOn(test.ctx.converter, 'convert').mockResolvedValue({
      ok: false,
      code: 'corrupt',
      message: 'The file is not a valid DOCX document. Save it again as .docx.',
    } satisfies ConversionOutcome);
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    const state = await waitForState(client, upload.json().process_id);
    expect(state.status).toBe('FAILURE');
    expect(state.message).toBe('The file is not a valid DOCX document. Save it again as .docx.');
    expect(convert).toHaveBeenCalledTimes(1);
    expect(await manuscriptExists(upload.json().manuscript.id)).toBe(false);
  });

  it('fails a job that expires on its last attempt (through the dead-letter queue)', async () => {
    let release = () => {};
    const hanging = new Promise<ConversionOutcome>((_resolve, reject) => {
      release = () => reject(new Error('released'));
    });
    vi.spyOn(test.ctx.converter, 'convert').mockReturnValue(hanging);
    const { client } = await loggedInClient(test);
    const upload = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    const processId = upload.json().process_id as string;
    // Cut the attempt short: as if it ran past expireInSeconds on its last try.
    await waitFor(async () => (await conversionRow(processId)).status === 'PROGRESS');
    await test.ctx.database.db.execute(
      sql`UPDATE pgboss.job SET expire_seconds = 1, retry_limit = 0,
          started_on = now() - interval '10 seconds' WHERE id = ${processId}::uuid`,
    );
    const state = await waitForState(client, processId, 20_000);
    release();
    expect(state).toEqual({ status: 'FAILURE', message: MESSAGES.processFailed, manuscript: null });
    const deadLettered = (await test.ctx.database.db.execute(
      sql`SELECT id FROM pgboss.job WHERE name = 'convert-document__failed'
          AND data->>'conversionId' = ${processId}`,
    )) as unknown as { rows: unknown[] };
    expect(deadLettered.rows).toHaveLength(1);
  });

  it('keeps the manuscript when a new draft fails', async () => {
    const { client } = await loggedInClient(test);
    const first = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    await waitForState(client, first.json().process_id);
    const id = first.json().manuscript.id as number;
    vi.spyOn(test.ctx.converter, 'convert').mockRejectedValue(new Error('boom'));
    const draft = await postFile(client, `/manuscript/${id}/document`, 'a2.md', '# New\n\nText.');
    const state = await waitForState(client, draft.json().process_id);
    expect(state.status).toBe('FAILURE');
    expect(state.manuscript).toMatchObject({ id, inking: false, words: SMALL_WORDS });
    const reader = await client.get(`/manuscript/document/reader/${id}`);
    expect(reader.statusCode).toBe(200);
    expect(reader.json().words).toBe(SMALL_WORDS);
  });
});

describe('restarts', () => {
  it('picks up a job cut off by a crash, and fails conversions whose job is gone', async () => {
    const { client } = await loggedInClient(test);
    const cutOff = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    const lost = await postFile(client, '/manuscript/document', 'b.md', fixture('small.md'));
    // Let both finish, then put the database back in the state a crash would leave: one job
    // active mid-conversion, one conversion whose job vanished.
    await waitForState(client, cutOff.json().process_id);
    await waitForState(client, lost.json().process_id);
    await test.app.close();
    const db = test.ctx.database.db;
    for (const processId of [cutOff.json().process_id, lost.json().process_id]) {
      await db
        .update(schema.documentConversions)
        .set({ status: 'PROGRESS', message: null, versionId: null, finishedAt: null })
        .where(eq(schema.documentConversions.id, processId));
    }
    await db
      .update(schema.manuscripts)
      .set({ inking: true, currentVersionId: null, words: 0 })
      .where(eq(schema.manuscripts.id, cutOff.json().manuscript.id));
    await db.execute(sql`DELETE FROM manuscript_versions WHERE manuscript_id IN
      (${cutOff.json().manuscript.id}, ${lost.json().manuscript.id})`);
    await db
      .update(schema.manuscripts)
      .set({ inking: true, currentVersionId: null, words: 0 })
      .where(eq(schema.manuscripts.id, lost.json().manuscript.id));
    // Its worker stopped sending heartbeats a minute ago, when the process died.
    await db.execute(sql`UPDATE pgboss.job SET state = 'active', started_on = now(),
      heartbeat_on = now() - interval '1 minute', completed_on = NULL
      WHERE id = ${cutOff.json().process_id}::uuid`);
    await db.execute(sql`DELETE FROM pgboss.job WHERE id = ${lost.json().process_id}::uuid`);

    const config: Config = { ...test.ctx.config };
    const restarted = await buildApp(config, test.database);
    await restarted.ready();
    test = { ...test, app: restarted, ctx: restarted.ctx };
    const resumed = await waitForConversion(cutOff.json().process_id);
    expect(resumed.status).toBe('SUCCESS');
    expect(resumed.attempts).toBeGreaterThanOrEqual(2);
    const failed = await waitForConversion(lost.json().process_id);
    expect(failed.status).toBe('FAILURE');
    expect(await manuscriptExists(lost.json().manuscript.id)).toBe(false);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForConversion(id: string) {
  await waitFor(async () => {
    const status = (await conversionRow(id)).status;
    return status !== 'PENDING' && status !== 'PROGRESS';
  });
  return conversionRow(id);
}
