import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES_CACHE_MS, MODERATION_MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser } from '../../test/factories.ts';
import { sessionClient } from '../comments/test-helpers.ts';
import { pageConfigOf } from '../invites/test-helpers.ts';
import { readFeatures, setFeature } from './service.ts';

const HTML = { accept: 'text/html' };
let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ productsEnabled: true, invitesEnabled: false });
});
afterAll(async () => test?.close());

const pageConfig = async () =>
  pageConfigOf(await new TestClient(test.app).get('/privacy', { headers: HTML }));

describe('features as runtime switches', () => {
  it('are seeded from the environment on first start', async () => {
    const rows = await test.ctx.db.select().from(schema.features);
    expect(Object.fromEntries(rows.map((row) => [row.name, row.enabled]))).toEqual({
      productsEnabled: true,
      invitesEnabled: false,
      maintenance: false,
    });
    expect(await pageConfig()).toMatchObject({
      productsEnabled: true,
      invitesEnabled: false,
      maintenanceNotice: null,
    });
  });

  it('change the page configuration and the routes without a restart', async () => {
    // A new user without a completed sign-up: with invites off, no invite code is asked.
    const fresh = async () =>
      sessionClient(test, await buildUser(test.ctx.db, { handle: null, signupCompletedAt: null }));
    const complete = async (handle: string) =>
      (await fresh()).client.post('/auth/complete/signup', { handle, display_name: 'New One' });
    expect((await complete('open_doors')).statusCode).toBe(200);

    await setFeature(test.ctx, 'invitesEnabled', { enabled: true });
    await setFeature(test.ctx, 'productsEnabled', { enabled: false });
    await setFeature(test.ctx, 'maintenance', { enabled: true, notice: 'Back at 10:00 UTC.' });

    expect(await pageConfig()).toMatchObject({
      productsEnabled: false,
      invitesEnabled: true,
      maintenanceNotice: 'Back at 10:00 UTC.',
    });
    const refused = await complete('closed_doors');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.invite_code).toEqual(['Enter your invite code.']);

    await setFeature(test.ctx, 'maintenance', { enabled: true, notice: '' });
    expect((await pageConfig()).maintenanceNotice).toBe(MODERATION_MESSAGES.maintenanceDefault);
    await setFeature(test.ctx, 'maintenance', { enabled: false });
    await setFeature(test.ctx, 'invitesEnabled', { enabled: false });
    expect((await pageConfig()).maintenanceNotice).toBeNull();
    expect((await complete('open_again')).statusCode).toBe(200);
  });

  it('reach another process within the cache time (a change made elsewhere)', async () => {
    expect((await readFeatures(test.ctx)).productsEnabled).toBe(false);
    // Another process writes the table: this one's copy is not told.
    await test.ctx.db
      .update(schema.features)
      .set({ enabled: true })
      .where(eq(schema.features.name, 'productsEnabled'));
    await new Promise((resolve) => setTimeout(resolve, FEATURES_CACHE_MS + 50));
    expect((await readFeatures(test.ctx)).productsEnabled).toBe(true);
  });
});
