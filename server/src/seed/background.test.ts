import { count } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { demoDataPending, demoSeedSettled, seedDemoDataInBackground } from './background.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const health = async () => (await test.app.inject({ method: 'GET', url: '/healthz' })).json();

it('answers /healthz while the demo data is created, and says so until it is there', async () => {
  const reports: string[] = [];
  const seeding = seedDemoDataInBackground(test.ctx, (report) => reports.push(report));
  expect(demoDataPending()).toBe(true);
  const during = await health();
  expect(during).toMatchObject({ ok: true, demo_data: 'creating' });

  await seeding;
  await demoSeedSettled();
  expect(demoDataPending()).toBe(false);
  expect(await health()).not.toHaveProperty('demo_data');
  const [users] = await test.ctx.db.select({ total: count() }).from(schema.users);
  expect(users!.total).toBeGreaterThan(0);
  // The one-time passwords are printed once the data is there.
  expect(reports).toHaveLength(1);
  expect(reports[0]).toContain('admin@margins.local');
  // No conversion thread is kept for an idle server (the seed converted in one).
  expect(test.ctx.converter.threadsAlive()).toBe(0);

  // A second run finds data: nothing is created, nothing printed.
  await seedDemoDataInBackground(test.ctx, (report) => reports.push(report));
  expect(reports).toHaveLength(1);
});
