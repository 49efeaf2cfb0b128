import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const ready = async () => {
  const response = await test.app.inject({ method: 'GET', url: '/readyz' });
  return { status: response.statusCode, body: response.json() };
};

it('is ready when the database answers and the job queue runs; not once draining', async () => {
  expect(await ready()).toEqual({ status: 200, body: { ready: true } });
  test.ctx.lifecycle.startDraining();
  expect(await ready()).toEqual({ status: 503, body: { ready: false, reason: 'draining' } });
  // Liveness is another question: a draining process is alive.
  expect((await test.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
});

it('is not ready without its job queue', async () => {
  const other = await createTestApp();
  try {
    await (other.ctx.jobs as unknown as { stop(): Promise<void> }).stop();
    expect((await other.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      ready: false,
      reason: 'jobs',
    });
  } finally {
    await other.close();
  }
});
