import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A small DOCX with chapters, italics, scene breaks, a footnote and a table. */
const DOCX = {
  name: 'small.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  buffer: readFileSync(path.join(root, 'server/src/conversion/fixtures/small.docx')),
};

/** Opens the reader and waits for the live room. */
async function openReader(page: Page, manuscriptId: number): Promise<void> {
  await page.goto(`/manuscript/document/reader/${manuscriptId}`);
  await expect(page.getByTestId('reader-box')).toBeVisible();
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
}

/** Selects the whole text of a paragraph (one with words) of the reader box, as a drag would. */
async function selectParagraph(page: Page, index: number): Promise<string> {
  const paragraph = page
    .getByTestId('reader-box')
    .locator('p')
    .filter({ hasText: /\w+ \w+ \w+/ })
    .nth(index);
  await paragraph.scrollIntoViewIfNeeded();
  await paragraph.selectText();
  return ((await paragraph.textContent()) ?? '').trim();
}

/** The margin card (thread) holding a comment text. */
const threadWith = (page: Page, text: string | RegExp): Locator =>
  page.locator('[data-margin-layer] [data-thread]').filter({ hasText: text });

test.describe.configure({ mode: 'serial' });

test('a reader comments live; the author sees it, votes, reports; edits and deletes reach the author', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const author = await newPerson(browser, 'Nell Harbour');
  const reader = await newPerson(browser, 'Rowan Reader');
  const manuscriptId = await uploadPublicManuscript(
    author,
    'The Lighthouse at Kestrel Point',
    DOCX,
  );

  await test.step('both open the manuscript; the author sees the reader in the strip', async () => {
    await openReader(author, manuscriptId);
    await openReader(reader, manuscriptId);
    await expect(author.getByTestId('presence-strip')).toContainText('Rowan Reader is reading');
  });

  const first = 'What a first line — the lamp is a character already.';
  let threadId = '';

  await test.step('the reader selects a passage and comments from the floating button', async () => {
    const passage = await selectParagraph(reader, 1);
    await reader.getByTestId('comment-selection').click();
    const editor = reader.getByTestId('comment-text');
    await expect(editor).toBeFocused();
    await editor.fill(first);
    await reader
      .locator('[data-margin-layer]')
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    const thread = threadWith(reader, first);
    await expect(thread).toBeVisible();
    threadId = (await thread.getAttribute('data-thread')) ?? '';
    expect(threadId).not.toBe('');
    const marks = reader.locator(`mark[data-hl="${threadId}"]`);
    await expect(marks.first()).toBeVisible();
    expect((await marks.allTextContents()).join('')).toBe(passage);
  });

  await test.step('the author sees the highlight and the comment appear without reloading', async () => {
    await expect(author.locator(`mark.hl[data-hl="${threadId}"]`).first()).toBeAttached();
    const thread = threadWith(author, first);
    await expect(thread).toBeVisible();
    await expect(thread).toContainText('Rowan Reader');
  });

  await test.step('the author votes it up; the reader sees the rank change', async () => {
    const thread = threadWith(author, first);
    await thread.getByRole('button', { name: 'Vote up' }).click();
    await expect(thread.getByRole('button', { name: 'Vote up' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(thread.locator('[data-rank]')).toHaveText('1');
    await expect(threadWith(reader, first).locator('[data-rank]')).toHaveText('1');
    // The reader cannot vote on their own comment.
    await expect(threadWith(reader, first).getByRole('button', { name: 'Vote up' })).toBeDisabled();
  });

  await test.step('the author reports it: a missing reason is refused, then it is submitted', async () => {
    await threadWith(author, first).getByRole('button', { name: 'Report' }).click();
    const dialog = author.getByRole('dialog', { name: 'Report this comment' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog.getByText('Please check your fields')).toBeVisible();
    await dialog.getByLabel(/Spam or advertising/).check();
    await dialog.getByLabel(/Tell us more/).fill('Testing the report flow.');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog).toBeHidden();
    await expect(author.getByText('Your report has been submitted.')).toBeVisible();
  });

  const edited = 'What a first line — the lamp is the main character.';
  await test.step('the reader edits the comment; the author sees the new text', async () => {
    const thread = reader.locator(`[data-margin-layer] [data-thread="${threadId}"]`);
    await thread.getByRole('button', { name: 'Edit' }).click();
    await reader.getByTestId('comment-text').fill(edited);
    await thread.getByRole('button', { name: 'Save' }).click();
    await expect(threadWith(reader, edited)).toBeVisible();
    await expect(threadWith(author, edited)).toBeVisible();
    await expect(author.getByText(first)).toHaveCount(0);
  });

  await test.step('the reader deletes it; it disappears for the author, highlight and all', async () => {
    await threadWith(reader, edited).getByRole('button', { name: 'Delete' }).click();
    await reader.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(threadWith(reader, edited)).toHaveCount(0);
    await expect(threadWith(author, edited)).toHaveCount(0);
    await expect(author.locator(`mark[data-hl="${threadId}"]`)).toHaveCount(0);
    await expect(reader.locator(`mark[data-hl="${threadId}"]`)).toHaveCount(0);
  });

  await test.step('a second editor is refused while one is open; cancelling an empty one removes it', async () => {
    await selectParagraph(reader, 2);
    await reader.keyboard.press('Control+Alt+M');
    await expect(reader.getByTestId('comment-text')).toBeFocused();
    const draftMark = reader.locator('mark.hl-pending, mark.hl-active');
    await expect(draftMark.first()).toBeAttached();
    await selectParagraph(reader, 3);
    await reader.keyboard.press('Control+Alt+M');
    await expect(
      reader
        .getByRole('alert')
        .filter({ hasText: 'Save or close the open comment first.' })
        .first(),
    ).toBeVisible();
    await expect(reader.getByTestId('comment-text')).toHaveCount(1);
    await reader.locator('[data-margin-layer]').getByRole('button', { name: 'Cancel' }).click();
    await expect(reader.getByTestId('comment-text')).toHaveCount(0);
    await expect(reader.locator('mark.hl')).toHaveCount(0);
    await expect(author.locator('mark.hl')).toHaveCount(0);
  });

  await author.context().close();
  await reader.context().close();
});

test('after the connection drops, the author catches up and keeps receiving comments', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const author = await newPerson(browser, 'Ines Author');
  const reader = await newPerson(browser, 'Theo Reader');
  const manuscriptId = await uploadPublicManuscript(author, 'Kestrel Point, second draft', DOCX);
  await openReader(author, manuscriptId);
  await openReader(reader, manuscriptId);

  const comment = async (paragraph: number, text: string) => {
    await selectParagraph(reader, paragraph);
    await reader.keyboard.press('Control+Alt+M');
    await reader.getByTestId('comment-text').fill(text);
    await reader
      .locator('[data-margin-layer]')
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    await expect(threadWith(reader, text)).toBeVisible();
  };

  await test.step('the author’s connection drops', async () => {
    await author.context().setOffline(true);
    await expect(author.locator('[data-connection="reconnecting"]')).toBeVisible({
      timeout: 60_000,
    });
  });

  const missed = 'Written while the author was offline.';
  await test.step('the reader comments meanwhile', async () => {
    await comment(1, missed);
  });

  await test.step('back online: the room is joined again and the missed comment caught up', async () => {
    await author.context().setOffline(false);
    await expect(author.locator('[data-connection="live"]')).toBeVisible({ timeout: 30_000 });
    await expect(threadWith(author, missed)).toBeVisible();
    await expect(threadWith(author, missed)).toHaveCount(1);
  });

  const later = 'Written after the author came back.';
  await test.step('later comments arrive live again', async () => {
    await comment(3, later);
    await expect(threadWith(author, later)).toBeVisible();
    await expect(threadWith(author, missed)).toHaveCount(1);
  });

  await author.context().close();
  await reader.context().close();
});
