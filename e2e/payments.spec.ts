import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { MESSAGES } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';

// The local provider (no STRIPE_SECRET_KEY in the e2e server): our own checkout page with
// Stripe's test cards, reported through the same sync code as Stripe's webhooks.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shot = (name: string) => path.join(root, 'test-results', 'e2e', `payments-${name}.png`);

async function payWithCard(page: Page, number: string): Promise<void> {
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Test Payer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

test('choose the yearly tier, pay with 4242…, see it on the profile, cancel renewal and keep it', async ({
  browser,
}) => {
  const page = await newPerson(browser, 'Paula Payer');
  await page.goto('/products/');
  await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const writer = page.locator('[data-product="Writer"]');
  await expect(writer).toContainText('$72');
  await expect(writer).toContainText('/ year');
  await expect(writer).toContainText('save $24 per year!');
  await expect(page.locator('[data-product="Free"]')).toContainText('FREE');
  await page.screenshot({ path: shot('pricing'), fullPage: true });

  await writer.getByRole('button', { name: 'Choose Writer' }).click();
  await expect(page).toHaveURL(/\/payments\/local\/checkout\/cs_local_/);
  await expect(page.locator('[data-amount]')).toContainText('$72');
  await page.screenshot({ path: shot('checkout'), fullPage: true });
  await payWithCard(page, '4242 4242 4242 4242');

  await expect(page).toHaveURL(/\/profile\/#subscription$/);
  const panel = page.locator('[data-subscription-panel]');
  await expect(panel).toContainText('Writer');
  await expect(panel).toContainText('$72 / year');
  await expect(panel).toContainText('Renews on');
  await page.screenshot({ path: shot('subscription'), fullPage: true });

  page.once('dialog', (dialog) => void dialog.accept());
  await panel.getByRole('button', { name: 'Cancel Renewal' }).click();
  await expect(panel.locator('[data-cancels-on]')).toContainText('Cancels on');
  await expect(page.getByText(MESSAGES.subscriptionCanceled)).toBeVisible();

  await panel.getByRole('button', { name: 'Keep Subscription' }).click();
  await expect(panel).toContainText('Renews on');
  await expect(page.getByText(MESSAGES.subscriptionRenew)).toBeVisible();

  // The state is the server's: a reload shows the same.
  await page.reload();
  await expect(page.locator('[data-subscription-panel]')).toContainText('Renews on');

  // The member page shows a subscriber what their tier gives.
  await page.goto('/membercontent');
  await expect(page.locator('[data-member-tier="Writer"]')).toContainText('1,000,000 words');
  await page.screenshot({ path: shot('member'), fullPage: true });
  await page.context().close();
});

test('a declined card shows the message and changes nothing', async ({ browser }) => {
  const page = await newPerson(browser, 'Dora Declined');
  await page.goto('/products/');
  await page.getByRole('button', { name: 'Monthly' }).click();
  await expect(page.locator('[data-product="Studio"]')).toContainText('/ month');
  await page.getByRole('button', { name: 'Choose Studio' }).click();
  await payWithCard(page, '4000 0000 0000 0002');
  await expect(page.getByText(PAYMENT_MESSAGES.cardDeclined).first()).toBeVisible();
  await expect(page).toHaveURL(/\/payments\/local\/checkout\//);

  await page.goto('/profile/#subscription');
  await expect(page.locator('[data-complementary]')).toHaveText('Complementary subscription');
  await page.context().close();
});

test('a reader tips an author from the reader; the author sees it on the dashboard', async ({
  browser,
}) => {
  const author = await newPerson(browser, 'Tilda Tipped');
  const manuscriptId = await uploadPublicManuscript(author, 'A tale worth a tip', {
    name: 'tale.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      'Chapter One\n\nThe lighthouse keeper counted the ships every night.\n\nNone came back.\n',
    ),
  });

  const reader = await newPerson(browser, 'Rafa Reader');
  await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
  await reader.getByRole('button', { name: /Contribute/ }).click();
  const dialog = reader.getByRole('dialog', { name: 'Tip Tilda Tipped' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '$10' }).click();
  await expect(dialog.getByLabel('Amount in dollars')).toHaveValue('10');
  await reader.screenshot({ path: shot('contribute') });
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await payWithCard(reader, '4242424242424242');
  await expect(reader).toHaveURL(/\/payments\/thanks\//);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(
    PAYMENT_MESSAGES.tipThanks('Tilda Tipped'),
  );

  await author.goto('/dashboard');
  const tips = author.locator('[data-tips-received]');
  await expect(tips).toContainText('$10');
  await expect(tips).toContainText('A tale worth a tip');
  await expect(tips).toContainText('Rafa Reader');
  await author.context().close();
  await reader.context().close();
});

test('the pricing, checkout and subscription pages pass axe in light and dark', async ({
  browser,
}) => {
  const page = await newPerson(browser, 'Axel Audit');
  const found: string[] = [];
  const audit = async (label: string) => {
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => window.localStorage.setItem('ms-theme-pref', value), theme);
      await page.reload();
      await page.locator('main').waitFor();
      const result = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      for (const violation of result.violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          found.push(
            `${label} (${theme}): ${violation.id} ${violation.nodes[0]?.target.join(' ')}`,
          );
        }
      }
    }
  };
  await page.goto('/products/');
  await expect(page.getByTestId('pricing-grid')).toBeVisible();
  await audit('pricing');
  await page.getByRole('button', { name: 'Choose Writer' }).click();
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  await audit('checkout');
  await page.goto('/profile/#subscription');
  await expect(page.locator('[data-subscription-panel]')).toBeVisible();
  await audit('subscription');
  expect(found).toEqual([]);
  await page.context().close();
});
