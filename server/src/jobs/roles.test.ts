import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, roleFromArguments, type Config } from '../config.ts';
import { fixture, postFile, waitForState } from '../modules/manuscripts/test-helpers.ts';
import { loggedInClient } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

describe('a web process', () => {
  let web: TestApp;
  beforeAll(async () => {
    web = await createTestApp({ role: 'web', conversion: { warmUp: true } });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('enqueues and answers, but runs no job and starts no conversion thread', async () => {
    const { client } = await loggedInClient(web);
    const response = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
    expect(response.statusCode, response.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const state = await client.get(`/manuscript/document/state/${response.json().process_id}`);
    expect(state.json().status).toBe('PENDING');
    expect(web.ctx.converter.threadsAlive()).toBe(0);
  });
});

describe('--role', () => {
  const embedded = { databaseUrl: undefined } as Config;
  const server = { databaseUrl: 'postgres://localhost/margins' } as Config;

  it('is all by default; web and worker need PostgreSQL; anything else is refused', () => {
    expect(roleFromArguments([], embedded)).toBe('all');
    expect(roleFromArguments(['--role=worker'], server)).toBe('worker');
    expect(roleFromArguments(['--role', 'web'], server)).toBe('web');
    expect(() => roleFromArguments(['--role=worker'], embedded)).toThrow(/needs a PostgreSQL/);
    expect(() => roleFromArguments(['--role=cook'], server)).toThrow(ConfigError);
  });
});

// Two processes on one database need PostgreSQL (the embedded one belongs to one process).
describe.runIf(!!process.env.TEST_DATABASE_URL)(
  'a web and a worker process on one database',
  () => {
    let web: TestApp;
    beforeAll(async () => {
      web = await createTestApp({ role: 'web' });
    });
    afterAll(async () => {
      await web?.close();
    });

    it('the web process enqueues and answers at once; only the worker converts', async () => {
      const { client } = await loggedInClient(web);
      const response = await postFile(client, '/manuscript/document', 'a.md', fixture('small.md'));
      expect(response.statusCode, response.body).toBe(200);
      const processId = response.json().process_id as string;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await client.get(`/manuscript/document/state/${processId}`)).json().status).toBe(
        'PENDING',
      );

      const worker = await buildApp({ ...web.ctx.config, role: 'worker' }, web.database);
      try {
        expect((await waitForState(client, processId, 30_000)).status).toBe('SUCCESS');
      } finally {
        await worker.close();
      }
    });
  },
);
