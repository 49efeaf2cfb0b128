import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';
import { staffPage } from './support/staff.ts';

/**
 * Moderation in Chromium (issue 14): a reader reports a comment, a moderator works the report
 * from the queue to a flagged comment, and the reader sees it hidden with its reason. On the
 * way, the admin list's reference filter (the ajax lookup, as an autocomplete) and an inline
 * one-field edit (the ajax update).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCX = {
  name: 'small.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  buffer: readFileSync(path.join(root, 'server/src/conversion/fixtures/small.docx')),
};

async function openReader(page: Page, manuscriptId: number): Promise<void> {
  await page.goto(`/manuscript/document/reader/${manuscriptId}`);
  await expect(page.getByTestId('reader-box')).toBeVisible();
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
}

const threadWith = (page: Page, text: string | RegExp): Locator =>
  page.locator('[data-margin-layer] [data-thread]').filter({ hasText: text });

test('a moderator works a report from the queue to a flagged comment the reader sees hidden', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const readerName = `Reporting Reader ${suffix}`;
  const author = await newPerson(browser, `Queue Author ${suffix}`);
  const reader = await newPerson(browser, readerName);
  const manuscriptId = await uploadPublicManuscript(author, `Reported Tales ${suffix}`, DOCX);
  const rude = `A rude margin note ${suffix}`;
  const reason = 'Insults another reader';

  await test.step('the author comments on a passage', async () => {
    await openReader(author, manuscriptId);
    const paragraph = author
      .getByTestId('reader-box')
      .locator('p')
      .filter({ hasText: /\w+ \w+ \w+/ })
      .nth(1);
    await paragraph.scrollIntoViewIfNeeded();
    await paragraph.selectText();
    await author.getByTestId('comment-selection').click();
    await author.getByTestId('comment-text').fill(rude);
    await author
      .locator('[data-margin-layer]')
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    await expect(threadWith(author, rude)).toBeVisible();
  });

  await test.step('the reader reports the comment', async () => {
    await openReader(reader, manuscriptId);
    await threadWith(reader, rude).getByRole('button', { name: 'Report' }).click();
    const dialog = reader.getByRole('dialog', { name: 'Report this comment' });
    await dialog.getByLabel(/Spam or advertising/).check();
    await dialog.getByLabel(/Tell us more/).fill('Rude to the author.');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(reader.getByText('Your report has been submitted.')).toBeVisible();
  });

  const moderator = await staffPage(browser, 'moderator@margins.local');
  const entry = moderator.locator('li.admin-queue-entry').filter({ hasText: rude });

  await test.step('the moderator lands on the queue: the comment, its passage and the report', async () => {
    await moderator.goto('/admin/');
    await expect(moderator.getByRole('heading', { name: 'Report queue', level: 1 })).toBeVisible();
    await expect(entry).toBeVisible();
    await expect(entry).toContainText(`in Reported Tales ${suffix}`);
    await expect(entry).toContainText('Spam or advertising');
    await expect(entry).toContainText('Rude to the author.');
    await expect(entry).toContainText(readerName);
    await entry.scrollIntoViewIfNeeded();
    await moderator.screenshot({ path: 'test-results/e2e/moderation-queue.png', fullPage: true });
  });

  await test.step('flag it with a reason: the report leaves the open queue', async () => {
    await entry.getByRole('button', { name: 'Flag', exact: true }).click();
    const dialog = moderator.getByRole('dialog');
    await dialog.getByLabel(/Reason/).fill(reason);
    await dialog.getByRole('button', { name: 'Flag', exact: true }).click();
    await expect(moderator.getByText('Flag: done.')).toBeVisible();
    await expect(entry).toHaveCount(0);
    await moderator.getByLabel('Show closed reports too').check();
    await expect(entry).toContainText(`Flagged: ${reason}`);
  });

  await test.step('the reader sees the comment hidden with its reason, text behind a reveal', async () => {
    await openReader(reader, manuscriptId);
    const hidden = reader.locator('[data-margin-layer] [data-thread]').filter({
      has: reader.locator('[data-flagged-comment]'),
    });
    await expect(hidden).toHaveCount(1);
    const threadId = await hidden.getAttribute('data-thread');
    // Found by its id: once revealed it is no longer a flagged card.
    const thread = reader.locator(`[data-margin-layer] [data-thread="${threadId ?? ''}"]`);
    await expect(thread).toContainText(`Hidden by the moderators. Reason: ${reason}`);
    await expect(thread).not.toContainText(rude);
    await reader.screenshot({ path: 'test-results/e2e/moderation-reader-hidden.png' });
    await thread.getByRole('button', { name: 'Show comment' }).click();
    await expect(thread).toContainText(rude);
  });

  await test.step('the reports list: filter by reporter through the lookup autocomplete', async () => {
    await moderator
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Moderation reports' })
      .click();
    await moderator.getByRole('button', { name: 'Add filter' }).click();
    await moderator.getByRole('menu').getByText('Reporter', { exact: true }).click();
    const reporter = moderator.getByRole('combobox', { name: 'Reporter' });
    await reporter.fill(readerName.slice(0, 12));
    await moderator.getByRole('option', { name: readerName }).click();
    await expect(moderator.locator('tbody tr')).toHaveCount(1);
    await expect(moderator.locator('tbody tr')).toContainText(rude);
    await moderator.screenshot({ path: 'test-results/e2e/moderation-reports-filtered.png' });
  });

  await test.step('reopen the report with an inline edit of its status', async () => {
    const status = moderator.locator('tbody tr').getByRole('combobox', { name: /^Status of #/ });
    await expect(status).toHaveText('resolved');
    await status.click();
    await moderator.getByRole('option', { name: 'open' }).click();
    await expect(moderator.getByText('Status saved.')).toBeVisible();
    await expect(status).toHaveText('open');
    // Back in the queue, it is open again; dismissing it keeps the flag.
    await moderator
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Report queue' })
      .click();
    await expect(entry).toContainText('1 open report');
    await entry.getByRole('button', { name: 'Dismiss' }).click();
    await expect(moderator.getByText('Dismiss: done.')).toBeVisible();
    await expect(entry).toHaveCount(0);
  });
  for (const page of [author, reader, moderator]) await page.context().close();
});
