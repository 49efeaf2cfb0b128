import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, linkIn, test, uniqueEmail, uniqueHandle } from './support/fixtures.ts';
import type { Mailbox } from './support/mailbox.ts';

const PASSWORD = 'a long enough passphrase';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A small DOCX with chapters (h1), parts (h2), italics, scene breaks, a footnote and a table. */
const DOCX = path.join(root, 'server/src/conversion/fixtures/small.docx');
const TITLE = 'The Lighthouse at Kestrel Point';

/** Signs a new author up through the pages, verifies the e-mail and completes sign-up. */
async function signUpNewAuthor(page: Page, mailbox: Mailbox): Promise<void> {
  const email = uniqueEmail('author');
  await page.goto('/auth/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Display name').fill('Nell Harbour');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/auth\/verify/);

  const mail = await mailbox.waitFor(email, 'Verify your e-mail');
  await page.goto(linkIn(mail, '/auth/verify'));
  await expect(page).toHaveURL(/\/auth\/complete\/signup/);
  await page.getByLabel('Handle').fill(uniqueHandle('author'));
  await page.getByLabel('Display name').fill('Nell Harbour');
  await page.getByRole('button', { name: /finish/i }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

/**
 * The manuscript flow of issue 3: upload a DOCX from the dashboard, watch it ink, read it,
 * jump through the table of contents, edit the summary, and archive it.
 */
test('upload a DOCX, watch it ink, read it, jump through the TOC, edit, archive', async ({
  page,
  mailbox,
}) => {
  await test.step('a new author signs up and lands on an empty dashboard', async () => {
    await signUpNewAuthor(page, mailbox);
    await expect(page.getByText('Your desk is clear')).toBeVisible();
  });

  const card = page.locator('[data-manuscript-card]').filter({ hasText: TITLE });

  await test.step('upload the DOCX from the new-manuscript modal and watch the spinner', async () => {
    await page.getByRole('button', { name: 'New manuscript' }).click();
    const dialog = page.getByRole('dialog', { name: 'New manuscript' });
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('manuscript-file').setInputFiles(DOCX);
    await expect(dialog.locator('[data-dropzone]')).toContainText('small.docx');
    // Without a title the card would be named after the file until the document's own is read.
    await dialog.getByLabel('Title').fill(TITLE);
    await dialog.getByRole('button', { name: 'Upload manuscript' }).click();

    // The server answers at once with an inking manuscript; its card spins until it is done.
    await expect(card.and(page.locator('[data-inking]'))).toBeVisible();
    await expect(card).toContainText('Inking ...');
    await expect(card.getByRole('link')).toHaveCount(0);

    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(page.getByText('manuscript saved!')).toBeVisible();
    await expect(card).not.toHaveAttribute('data-inking');
    await expect(card.getByRole('link', { name: TITLE })).toBeVisible();
  });

  await test.step('open the reader', async () => {
    await card.getByRole('link', { name: TITLE }).click();
    await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: TITLE }).first()).toBeVisible();
    const box = page.getByTestId('reader-box');
    await expect(box.locator('hr.scene-break').first()).toBeAttached();
    await expect(box.locator('em').first()).toBeAttached();
  });

  await test.step('jump through the table of contents', async () => {
    const contents = page.getByRole('navigation', { name: 'Table of contents' });
    const box = page.getByTestId('reader-box');
    for (const chapter of ['Chapter 2', 'Chapter 4', 'Chapter 1']) {
      await contents.getByRole('link', { name: chapter, exact: true }).click();
      const heading = box.getByRole('heading', { name: chapter, exact: true });
      await expect(heading).toBeInViewport();
      await expect(heading).toBeFocused();
      await expect(contents.getByRole('link', { name: chapter, exact: true })).toHaveAttribute(
        'aria-current',
        'location',
      );
    }
  });

  const summary = 'A keeper’s daughter counts the lamps and finds one missing.';

  await test.step('edit the summary: "manuscript updated!"', async () => {
    await page.getByRole('button', { name: 'Edit details' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit manuscript' });
    await editor.getByLabel('Summary').fill(summary);
    await editor.getByRole('button', { name: 'Save manuscript' }).click();
    await expect(page.getByText('manuscript updated!')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(editor).toBeHidden();
    await expect(page.locator('article header')).toContainText(summary);
  });

  await test.step('archive it from the dashboard: gone from the list', async () => {
    await page.goto('/dashboard');
    await expect(card).toContainText(summary);
    await card.getByRole('button', { name: `Delete ${TITLE}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete “${TITLE}”?` });
    await confirm.getByRole('button', { name: 'Delete manuscript' }).click();
    await expect(card).toHaveCount(0);
    await expect(page.getByText('Your desk is clear')).toBeVisible();
    await page.reload();
    await expect(card).toHaveCount(0);
  });
});
