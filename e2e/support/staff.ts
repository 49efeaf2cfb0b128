import type { Browser, Page } from '@playwright/test';
import { expect, linkIn } from './fixtures.ts';
import { Mailbox } from './mailbox.ts';
import { csrfOf } from './people.ts';

/**
 * A new browser logged in as a seeded staff account (admin@ or moderator@margins.local),
 * through a mailed log-in link: the demo seed's staff have one-time passwords nobody knows here.
 */
export async function staffPage(browser: Browser, email: string, theme = 'light'): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript((value) => {
    window.localStorage.setItem('cookie-accept', 'true');
    window.localStorage.setItem('ms-theme-pref', value);
  }, theme);
  const page = await context.newPage();
  await page.goto('/');
  const sent = await page.request.post('/auth/login/link', {
    data: { email },
    headers: { 'x-csrf-token': await csrfOf(context) },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const mailbox = new Mailbox(page.request);
  await page.goto(linkIn(await mailbox.waitFor(email, 'log-in link'), '/auth/login/link'));
  await page.getByRole('button', { name: 'Log me in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  return page;
}
