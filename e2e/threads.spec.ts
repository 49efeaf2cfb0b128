import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';

// Issue 16: a reader replies live to another reader's comment, the author resolves the thread,
// exports the feedback as a Word document and downloads it.

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

test('a reader replies live, the author resolves and exports the feedback as Word', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = await newPerson(browser, 'Nell Harbour');
  const first = await newPerson(browser, 'Rowan Reader');
  const second = await newPerson(browser, 'Ida Second');
  const manuscriptId = await uploadPublicManuscript(
    author,
    'The Lighthouse at Kestrel Point',
    DOCX,
  );
  for (const page of [author, first, second]) await openReader(page, manuscriptId);

  const note = 'The lamp feels alive here.';
  const answer = 'Agreed — it is the best line so far.';
  await test.step('the first reader comments on a passage', async () => {
    const paragraph = first
      .getByTestId('reader-box')
      .locator('p')
      .filter({ hasText: /\w+ \w+ \w+/ })
      .nth(1);
    await paragraph.scrollIntoViewIfNeeded();
    await paragraph.selectText();
    await first.getByTestId('comment-selection').click();
    await first.getByTestId('comment-text').fill(note);
    await first
      .locator('[data-margin-layer]')
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    await expect(
      first.locator('[data-margin-layer] [data-thread]').filter({ hasText: note }),
    ).toBeVisible();
  });

  await test.step('the second reader replies; the first sees the reply live', async () => {
    const card = second.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note });
    await expect(card).toBeVisible();
    await card.locator('[data-reply-to]').click();
    await card.locator('[data-reply-input]').fill(answer);
    await card.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(card.locator('[data-reply-text]')).toHaveText(answer);
    const seen = first.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note });
    await expect(seen.locator('[data-reply-text]')).toHaveText(answer);
    await expect(author.locator('[data-reply-text]').filter({ hasText: answer })).toBeVisible();
  });

  await test.step('a reaction shows its count live', async () => {
    const card = first.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note });
    await card.locator('summary[aria-label="Add a reaction"]').first().click();
    await card.locator('[data-add-reaction="heart"]').first().click();
    await expect(
      second.locator('[data-comment-extras] > [data-reactions] [data-reaction="heart"]').first(),
    ).toContainText('1');
  });

  await test.step('the author resolves the thread; it folds away, and readers see it was resolved', async () => {
    const card = author.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note });
    await card.locator('[data-resolve]').click();
    await expect(
      first.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note }),
    ).toHaveCount(0);
    await first.locator('[data-show-resolved]').check();
    expect(first.url()).toContain('resolved=show');
    const shown = first.locator('[data-margin-layer] [data-comment-id]').filter({ hasText: note });
    await expect(shown.locator('[data-resolved]')).toBeVisible();
    await shown.screenshot({ path: test.info().outputPath('threads-card.png') });
  });

  await test.step('the author exports the feedback as Word and downloads it', async () => {
    await author.locator('[data-export-menu] summary').click();
    await author.locator('[data-export-docx]').click();
    const link = author.locator('[data-export-download]');
    await expect(link).toBeVisible({ timeout: 60_000 });
    await author.screenshot({ path: test.info().outputPath('threads-export.png') });
    const [download] = await Promise.all([author.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/feedback\.docx$/);
    const bytes = readFileSync(await download.path());
    const files = unzipSync(new Uint8Array(bytes));
    const comments = strFromU8(files['word/comments.xml']!);
    expect(comments).toContain(note);
    expect(comments).toContain(answer);
    expect(comments).toContain('Rowan Reader');
    expect(strFromU8(files['word/commentsExtended.xml']!)).toContain('w15:done="1"');
  });
});
