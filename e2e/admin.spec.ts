import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { newPerson } from './support/people.ts';
import { staffPage } from './support/staff.ts';

/**
 * The admin area (issue 14) in Chromium against the real server: staff log in with a log-in
 * link (the demo seed's admin and moderator have one-time passwords nobody knows here).
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const MODERATOR_SECTIONS = [
  'Moderation reports',
  'Report reasons',
  'Manuscripts',
  'Comments',
  'Users',
];

/** Serious and critical axe violations of the page as it is now (none expected). */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`,
    );
}

test('an admin finds a user, suspends them and exports users as CSV', async ({ browser }) => {
  const name = `Suspect ${Date.now().toString(36)}`;
  const target = await newPerson(browser, name);
  const targetEmail = await target.evaluate(() => {
    const config = JSON.parse(document.getElementById('page-config')?.textContent ?? '{}') as {
      currentUser?: { email?: string };
    };
    return config.currentUser?.email ?? '';
  });
  expect(targetEmail).toContain('@');
  const admin = await staffPage(browser, 'admin@margins.local');

  await test.step('the dashboard: five metrics, each with its 30-day trend', async () => {
    await admin.goto('/admin/');
    await expect(admin.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    for (const label of [
      'Sign-ups',
      'Uploads',
      'Conversions failed',
      'Open reports',
      'Subscriptions',
    ]) {
      const card = admin.locator('li', { has: admin.getByRole('heading', { name: label }) });
      await expect(
        card.getByRole('img', { name: new RegExp(`${label}, last 30 days`) }),
      ).toBeVisible();
    }
    await admin.screenshot({ path: 'test-results/e2e/admin-dashboard.png', fullPage: true });
    expect(await seriousViolations(admin)).toEqual([]);
  });

  await test.step('find the user by searching the users list', async () => {
    await admin
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Users' })
      .click();
    await expect(admin).toHaveURL(/\/admin\/user/);
    await admin.getByRole('textbox', { name: 'Search' }).fill(targetEmail);
    await expect(admin.getByRole('cell', { name: targetEmail })).toBeVisible();
    await expect(admin.locator('tbody tr')).toHaveCount(1);
    await admin.screenshot({ path: 'test-results/e2e/admin-users-found.png', fullPage: true });
    expect(await seriousViolations(admin)).toEqual([]);
  });

  await test.step('suspend them with the bulk action: asked first, then logged out', async () => {
    await admin.locator('tbody tr').getByRole('checkbox', { name: 'Select this row' }).check();
    await admin.getByRole('button', { name: 'Suspend', exact: true }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog).toContainText('Suspend the chosen accounts? They are logged out at once.');
    await admin.screenshot({ path: 'test-results/e2e/admin-suspend-confirm.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(admin.getByText('Suspend: 1 item changed.')).toBeVisible();
    await target.reload();
    await expect(target.getByRole('button', { name: 'Log out' })).toHaveCount(0);
  });

  await test.step('export the found users as CSV: the search applies to the file', async () => {
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^user-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(targetEmail);
    expect(lines[1]).toContain(name);
  });
  await admin.context().close();
  await target.context().close();
});

test('a moderator sees only their sections; everyone else gets 404', async ({ browser }) => {
  const moderator = await staffPage(browser, 'moderator@margins.local', 'dark');
  await moderator.goto('/admin/');
  const nav = moderator.getByRole('navigation', { name: 'Admin sections' });
  await expect(nav.getByRole('link')).toHaveText([
    'Dashboard',
    'Report queue',
    ...MODERATOR_SECTIONS,
  ]);
  // A moderator lands on their work: the report queue.
  await expect(moderator.getByRole('heading', { name: 'Report queue', level: 1 })).toBeVisible();
  await moderator.screenshot({
    path: 'test-results/e2e/admin-moderator-dashboard.png',
    fullPage: true,
  });

  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(moderator.locator('tbody tr').first()).toBeVisible();
  // No addresses for moderators, no exports, no new accounts; suspending is theirs.
  await expect(moderator.getByRole('columnheader', { name: 'E-mail' })).toHaveCount(0);
  await expect(moderator.getByRole('link', { name: /^Export/ })).toHaveCount(0);
  await expect(moderator.getByRole('link', { name: 'Create' })).toHaveCount(0);
  await moderator.locator('tbody tr').first().getByRole('checkbox').check();
  await expect(moderator.getByRole('button', { name: 'Suspend', exact: true })).toBeVisible();
  await moderator.screenshot({
    path: 'test-results/e2e/admin-moderator-users.png',
    fullPage: true,
  });
  expect(await seriousViolations(moderator)).toEqual([]);

  const genres = await moderator.request.get('/admin/api/genre');
  expect(genres.status()).toBe(403);

  const member = await newPerson(browser, 'Curious Member');
  const page = await member.goto('/admin/');
  expect(page?.status()).toBe(404);
  await expect(member.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
  const api = await member.request.get('/admin/api/_meta');
  expect(api.status()).toBe(404);
  await moderator.context().close();
  await member.context().close();
});
