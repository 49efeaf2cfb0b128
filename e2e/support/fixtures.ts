import { randomBytes } from 'node:crypto';
import { test as base } from '@playwright/test';
import { Mailbox } from './mailbox.ts';

export { expect } from '@playwright/test';
export { linkIn } from './mailbox.ts';

/** An address no other test (or earlier run on the same database) uses. */
export const uniqueEmail = (name = 'reader') =>
  `${name}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;

/** A handle of 3–30 letters, digits or underscores, unique like uniqueEmail. */
export const uniqueHandle = (name = 'reader') =>
  `${name}_${randomBytes(4).toString('hex')}`.slice(0, 30);

/**
 * The Playwright test with a `mailbox` fixture that reads the development mailbox, and a
 * `page` that dismisses the cookie notice whenever it would be in the way.
 */
export const test = base.extend<{ mailbox: Mailbox }>({
  mailbox: async ({ request }, use) => {
    await use(new Mailbox(request));
  },
  page: async ({ page }, use) => {
    await page.addLocatorHandler(
      page.getByRole('button', { name: /^got it$/i }),
      async (button) => {
        await button.click();
      },
      { noWaitAfter: true },
    );
    await use(page);
  },
});
