import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { expect, linkIn, test, uniqueEmail, uniqueHandle } from './support/fixtures.ts';
import type { Mailbox } from './support/mailbox.ts';

const PASSWORD = 'a long enough passphrase';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCX = path.join(root, 'server/src/conversion/fixtures/small.docx');
const TITLE = 'The Keeper’s Questions';

/** From the sign-up page (with or without ?next=): sign up, verify by mail, complete sign-up. */
async function signUp(page: Page, mailbox: Mailbox, name: string): Promise<void> {
  const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
  // Inside the sign-up form: coming from the login page, its own Email field stays on screen
  // until the sign-up page's code has loaded (the navigation is a transition).
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByLabel('Display name').fill(name);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/auth\/verify/);

  const mail = await mailbox.waitFor(email, 'Verify your e-mail');
  await page.goto(linkIn(mail, '/auth/verify'));
  await expect(page).toHaveURL(/\/auth\/complete\/signup/);
  await page.getByLabel('Handle').fill(uniqueHandle(name.split(' ')[0]!.toLowerCase()));
  await page.getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: /finish/i }).click();
}

/**
 * A new visitor opens a share link logged out: they are sent to log in, take "Create an
 * account", sign up (verifying by mail) and land back on the link's landing.
 */
async function newReaderOpens(
  browser: Browser,
  mailbox: Mailbox,
  link: string,
  name: string,
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addLocatorHandler(
    page.getByRole('button', { name: /^got it$/i }),
    (button) => button.click(),
    { noWaitAfter: true },
  );
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/login\?next=/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/auth\/signup\?next=/);
  await signUp(page, mailbox, name);
  return page;
}

/**
 * On a share link's landing: the manuscript is shown and nothing happens until the reader
 * presses Accept (a POST with the CSRF header; opening a link alone changes nothing).
 */
async function acceptOnLanding(page: Page, screenshot?: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'You’re invited to read' })).toBeVisible();
  await expect(page.getByText(TITLE)).toBeVisible();
  if (screenshot) await page.screenshot({ path: screenshot });
  await page.getByRole('button', { name: 'Accept and start reading' }).click();
  await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+$/);
}

/** Answers the questionnaire made below: right (West) or wrong (East). */
async function answerQuestionnaire(page: Page, right: boolean): Promise<void> {
  const form = page.getByRole('form', { name: 'Questionnaire' });
  await expect(form).toBeVisible();
  await form.getByRole('radio', { name: right ? 'West' : 'East' }).check();
  await form.getByLabel('Why do you want to read it?').fill('I grew up by the sea.');
  await form.getByRole('button', { name: 'Send my answers' }).click();
}

/**
 * Issue 5's flow: the author makes a private one-time link with a questionnaire that approves
 * automatically; a new reader opens it, signs up, passes and the page reloads into the text; a
 * second reader finds the one-time link used, comes in by a link of their own, fails the score
 * and waits; the author approves them from the answers page and they can read.
 */
test('one-time links, the questionnaire gate, auto-approval and the author’s approval', async ({
  page,
  browser,
  mailbox,
}, testInfo) => {
  test.setTimeout(180_000);

  await test.step('a new author signs up and uploads a manuscript', async () => {
    await page.goto('/auth/signup');
    await signUp(page, mailbox, 'Nell Harbour');
    await expect(page).toHaveURL(/\/dashboard/);
    await page.getByRole('button', { name: 'New manuscript' }).click();
    const dialog = page.getByRole('dialog', { name: 'New manuscript' });
    await dialog.getByTestId('manuscript-file').setInputFiles(DOCX);
    await dialog.getByLabel('Title').fill(TITLE);
    await dialog.getByRole('button', { name: 'Upload manuscript' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
  });

  const editor = page.getByRole('dialog', { name: TITLE });

  await test.step('the Questionnaire tab: one scored question, one text, auto-approval at 85 %', async () => {
    await page.getByRole('button', { name: `Edit ${TITLE}` }).click();
    await editor.getByRole('tab', { name: 'Questionnaire' }).click();
    const panel = editor.locator('[data-survey-editor="questionaire"]');
    await panel.getByRole('button', { name: 'Add question' }).click();
    const first = panel.locator('[data-question]').nth(0);
    await first
      .getByRole('textbox', { name: 'Question', exact: true })
      .fill('Which coast is the lighthouse on?');
    await first.getByRole('textbox', { name: 'Choice 1' }).fill('East');
    await first.getByRole('textbox', { name: 'Choice 2' }).fill('West');
    await first.getByRole('radio', { name: 'Choice 2 is a right answer' }).check();
    // Canned Yes/No is refused while the question has choices.
    await first.getByRole('button', { name: 'Yes/No' }).click();
    await expect(first.getByRole('alert')).toHaveText(
      'Yes/No can only be added to a question without choices.',
    );

    await panel.getByRole('button', { name: 'Add question' }).click();
    const second = panel.locator('[data-question]').nth(1);
    await second
      .getByRole('textbox', { name: 'Question', exact: true })
      .fill('Why do you want to read it?');
    await second.getByLabel('Answer type').selectOption('shortAnswer');

    await expect(panel.getByRole('spinbutton', { name: 'Pass mark' })).toHaveValue('85');
    await panel.getByRole('checkbox', { name: /Approve readers automatically/ }).check();
    await panel.getByRole('button', { name: 'Save questionnaire' }).click();
    await expect(page.getByText('Questionnaire saved!')).toBeVisible();
  });

  const links: string[] = [];

  await test.step('the Share tab: two private one-time links', async () => {
    await editor.getByRole('tab', { name: 'Share' }).click();
    const panel = editor.locator('[data-share-panel]');
    await panel.getByRole('radio', { name: /Private/ }).check();
    const oneTime = panel.getByRole('checkbox', { name: /One-time use/ });
    await expect(oneTime).toBeEnabled();
    await oneTime.check();
    const field = panel.getByLabel('Share link');
    let previous = '';
    for (let index = 0; index < 2; index += 1) {
      await panel.getByRole('button', { name: 'Create one-time link' }).click();
      // Each click makes a new link: wait for it to replace the one shown.
      await expect(field).toHaveValue(/\/share\/[\w-]+$/);
      if (previous) await expect(field).not.toHaveValue(previous);
      previous = await field.inputValue();
      links.push(new URL(previous).pathname);
    }
    await expect(panel.locator('[data-invite-row="link"]')).toHaveCount(2);
    await expect(panel.locator('[data-invite-row="link"]').getByText('Unused')).toHaveCount(2);
  });

  const [firstLink, secondLink] = links as [string, string];

  await test.step('reader one opens the first link, signs up, passes, and reads', async () => {
    const reader = await newReaderOpens(browser, mailbox, firstLink, 'Ines Shore');
    // Back on the link after sign-up: one click to accept.
    await expect(reader).toHaveURL(new RegExp(`${firstLink}$`));
    await acceptOnLanding(reader, testInfo.outputPath('share-landing.png'));
    await expect(reader.getByTestId('reader-box')).toHaveCount(0);
    await answerQuestionnaire(reader, true);
    await expect(reader.getByRole('heading', { name: 'Approved!' })).toBeVisible();
    // The page reloads by itself after 2 s, into the text.
    await expect(reader.getByTestId('reader-box')).toBeVisible({ timeout: 10_000 });
    await expect(reader.getByRole('form', { name: 'Questionnaire' })).toHaveCount(0);
    await reader.context().close();
  });

  await test.step('reader two: the used one-time link is refused; their own link lets them answer, and they wait', async () => {
    const reader = await newReaderOpens(browser, mailbox, firstLink, 'Otto Quay');
    await expect(reader).toHaveURL(new RegExp(`${firstLink}$`));
    await expect(reader.getByRole('heading', { name: 'This link was already used' })).toBeVisible();
    await expect(reader.getByTestId('reader-box')).toHaveCount(0);

    await reader.goto(secondLink);
    await acceptOnLanding(reader);
    await answerQuestionnaire(reader, false);
    await expect(reader.getByRole('heading', { name: 'Awaiting Approval' })).toBeVisible();
    await reader.reload();
    await expect(reader.getByRole('heading', { name: 'Awaiting Approval' })).toBeVisible();
    await expect(reader.getByTestId('reader-box')).toHaveCount(0);

    await test.step('the author approves them from the answers page', async () => {
      await page.goto('/dashboard');
      await page.getByRole('button', { name: `Edit ${TITLE}` }).click();
      await editor.getByRole('tab', { name: 'Questionnaire' }).click();
      await editor.getByRole('link', { name: 'See the answers' }).click();
      await expect(page).toHaveURL(/\/survey\/questionaire\/responses$/);
      const responses = page.getByRole('list', { name: 'Responses' });
      await expect(responses.getByRole('button')).toHaveCount(2);
      await expect(responses.getByRole('button', { name: /Ines Shore/ })).toContainText(
        'Auto-approved',
      );
      await responses.getByRole('button', { name: /Otto Quay/ }).click();
      const response = page.getByRole('dialog', { name: 'Otto Quay’s answers' });
      await expect(response.locator('[data-choice-state="picked-wrong"]')).toContainText('East');
      await expect(response.locator('[data-choice-state="missed"]')).toContainText('West');
      await response.getByRole('button', { name: 'Approve' }).click();
      await expect(response.getByText('Approved', { exact: true })).toBeVisible();
      await expect(response.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    });

    await reader.reload();
    await expect(reader.getByTestId('reader-box')).toBeVisible();
    await reader.context().close();
  });

  await test.step('the Share tab shows both one-time links used', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: `Edit ${TITLE}` }).click();
    await editor.getByRole('tab', { name: 'Share' }).click();
    const linkRows = editor.locator('[data-invite-row="link"]');
    await expect(linkRows.getByText('Used', { exact: true })).toHaveCount(2);
    await expect(editor.locator('[data-invite-row="person"]')).toHaveCount(2);
    // An invite by e-mail lists the address as typed, not whose account it is (issue 19.2).
    await editor.getByLabel('Handle or e-mail address').fill('ines.friend@example.test');
    await editor.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(editor.getByText(/Invite e-mailed to ines.friend@example.test/)).toBeVisible();
    const invited = editor.locator('[data-invite-row="person"]').filter({
      hasText: 'ines.friend@example.test',
    });
    await expect(invited).toContainText('Invited by e-mail');
    await invited.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('share-panel.png') });
  });
});
