import { expect, linkIn, test, uniqueEmail, uniqueHandle } from './support/fixtures.ts';
import { csrfOf, PASSWORD } from './support/people.ts';

// Issue 20 item 6: wrong passwords slow down (429 with the wait) instead of locking the owner
// out; the owner asks for a one-time log-in link, and the link logs in only by its button.

test('a throttled owner gets in with a mailed one-time link', async ({ browser, mailbox }) => {
  const email = uniqueEmail('owner');
  const signupContext = await browser.newContext();
  const signupPage = await signupContext.newPage();
  await signupPage.goto('/');
  const signup = await signupPage.request.post('/auth/signup', {
    data: { email, password: PASSWORD, display_name: 'Owner Throttled' },
    headers: { 'x-csrf-token': await csrfOf(signupContext) },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await signupPage.goto(linkIn(await mailbox.waitFor(email, 'Verify your e-mail'), '/auth/verify'));
  const complete = await signupPage.request.post('/auth/complete/signup', {
    data: { handle: uniqueHandle('owner'), display_name: 'Owner Throttled' },
    headers: { 'x-csrf-token': await csrfOf(signupContext) },
  });
  expect(complete.ok(), await complete.text()).toBe(true);
  await signupContext.close();

  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('cookie-accept', 'true'));
  const page = await context.newPage();

  await test.step('five wrong passwords, then the wait is shown with the link action', async () => {
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel('Password').fill(`wrong guess ${attempt}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(
        page.getByText('That e-mail and password do not match an account.'),
      ).toBeVisible();
    }
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(
      page.getByText(/Too many failed log-ins\. Try again in \d+ seconds?/),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login/);
    await page.screenshot({ path: 'test-results/e2e/login-throttled.png', fullPage: true });
  });

  await test.step('send me a log-in link', async () => {
    await page.getByRole('button', { name: 'Send me a log-in link' }).click();
    await expect(page.getByText(/a log-in link is on its way/)).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/login-link-sent.png', fullPage: true });
  });

  await test.step('the link shows a button; the button logs in, once', async () => {
    const link = linkIn(await mailbox.waitFor(email, 'log-in link'), '/auth/login/link');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Log in with your link' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/e2e/login-link-page.png', fullPage: true });
    await page.getByRole('button', { name: 'Log me in' }).click();
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

    const again = await context.newPage();
    await again.goto(link);
    await again.getByRole('button', { name: 'Log me in' }).click();
    await expect(again.getByText(/invalid, expired or already used/)).toBeVisible();
  });
  await context.close();
});
