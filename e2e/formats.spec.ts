import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures.ts';
import { newPerson } from './support/people.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(root, 'server/src/conversion/fixtures');

/**
 * Issue 3's promise in every format: the same small book, written as DOCX, ODT and RTF by
 * LibreOffice and as text, HTML and Markdown, is uploaded from the upload page, opens in the
 * reader with its own title, chapters, italics and scene breaks, and its contents jump.
 */
test('upload the book in each of the six formats from the upload page, and read it', async ({
  browser,
}) => {
  // One author for all six (sign-ups are rate-limited per address, and e2e has one address).
  const page = await newPerson(browser, 'Fay Formats');
  for (const format of ['docx', 'odt', 'rtf', 'txt', 'html', 'md']) {
    await test.step(format.toUpperCase(), async () => {
      await page.goto('/manuscript/upload');
      await page
        .getByTestId('manuscript-file')
        .setInputFiles(path.join(FIXTURES, `small.${format}`));
      await page.getByRole('button', { name: 'Upload manuscript' }).click();

      // Without a title of the author's, the document's own is used.
      await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+$/, { timeout: 30_000 });
      await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(
        /The Lighthouse at Kestrel Point/i,
      );
      const box = page.getByTestId('reader-box');
      await expect(box.locator('h1', { hasText: 'Chapter 4' })).toBeAttached();
      await expect(box.locator('hr.scene-break').first()).toBeAttached();
      if (format !== 'txt') await expect(box.locator('em').first()).toBeAttached();

      const contents = page.getByRole('navigation', { name: 'Table of contents' });
      await contents.getByRole('link', { name: 'Chapter 4' }).click();
      await expect(box.locator('h1', { hasText: 'Chapter 4' })).toBeInViewport();
    });
  }
  await page.context().close();
});
