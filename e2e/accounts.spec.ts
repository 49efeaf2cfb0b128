import { expect, linkIn, test, uniqueEmail, uniqueHandle } from './support/fixtures.ts';

const PASSWORD = 'a long enough passphrase';

/**
 * The foundation flow of a new person: sign up, verify by the mailed link, complete sign-up,
 * edit the profile, pick a genre, switch the theme, log out and log in again.
 */
test('sign up, verify, complete, profile, genre, theme, log out, log in', async ({
  page,
  mailbox,
}) => {
  const email = uniqueEmail('newcomer');
  const handle = uniqueHandle('newcomer');

  await test.step('sign up', async () => {
    await page.goto('/auth/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill('New Comer');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/auth\/verify/);
  });

  await test.step('open the verification mail in /dev/mail and click the link', async () => {
    const mail = await mailbox.waitFor(email, 'Verify your e-mail');
    expect(linkIn(mail, '/auth/verify')).toContain('token=');
    await page.goto('/dev/mail');
    const message = page.locator('article, li, section').filter({ hasText: email }).first();
    await expect(message).toBeVisible();
    await message.getByRole('link', { name: 'Verify my e-mail' }).click();
    await expect(page).toHaveURL(/\/auth\/complete\/signup/);
  });

  await test.step('complete sign-up with a handle and display name', async () => {
    await page.getByLabel('Handle').fill(handle);
    await page.getByLabel('Display name').fill('New Comer');
    await page.getByRole('button', { name: /finish/i }).click();
    await expect(page).toHaveURL(/\/dashboard/);
  });

  await test.step('profile: a bad handle shows the red field error, a good one saves', async () => {
    await page.goto('/profile/');
    const handleField = page.getByLabel('Handle');
    await handleField.fill('x!');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const error = page.getByText('3 to 30 letters, digits or underscores.');
    await expect(error).toBeVisible();
    await expect(handleField).toHaveAttribute('aria-invalid', 'true');
    const colour = await error.evaluate((element) => getComputedStyle(element).color);
    expect(isReddish(colour), `field error colour ${colour}`).toBe(true);

    await handleField.fill(handle);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved!')).toBeVisible();
    await expect(handleField).not.toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('toggle a genre; it stays after a reload', async () => {
    await page.goto('/profile/genres');
    const fantasy = page.getByRole('checkbox', { name: 'Fantasy' });
    await expect(fantasy).not.toBeChecked();
    // Each toggle saves at once: wait for that call before reloading.
    const saved = page.waitForResponse(
      (response) =>
        /\/profile\/genres\/\d+$/.test(response.url()) && response.request().method() === 'PUT',
    );
    await fantasy.click();
    expect((await saved).ok()).toBe(true);
    await expect(fantasy).toBeChecked();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Fantasy' })).toBeChecked();
  });

  await test.step('switch the theme to dark; a reload keeps it', async () => {
    await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(
      page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }),
    ).toHaveAttribute('aria-pressed', 'true');
  });

  await test.step('log out', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
    // The old session is gone server-side: a logged-in-only call (with a valid CSRF token)
    // is refused as not logged in.
    const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token');
    const protectedCall = await page.request.post('/auth/complete/signup', {
      data: { handle, display_name: 'x' },
      headers: { 'x-csrf-token': csrf?.value ?? '' },
    });
    expect(protectedCall.status()).toBe(401);
  });

  await test.step('log in again', async () => {
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  });
});

/**
 * Issues 19.1, 20.5, 20.7, 20.8: the sign-up form says why a password is refused; an address
 * that has an account gets the same "Check your inbox" (its owner a note); an unconfirmed
 * account sees a banner with "Send again"; the link opened in another browser confirms the
 * address but asks that browser to log in.
 */
test('password rules, the unconfirmed banner, and a link opened elsewhere', async ({
  page,
  browser,
  mailbox,
}, testInfo) => {
  const email = uniqueEmail('careful');

  await test.step('the form refuses weak passwords, saying why', async () => {
    await page.goto('/auth/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Display name').fill('Careful Writer');
    const password = page.getByLabel('Password');
    await password.fill('aaaaaaaaaa');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText('This password is one character repeated.')).toBeVisible();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    // A common password: only the server knows the list; its field error shows the same way.
    await password.fill('password123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(/on a list of common passwords/)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('signup-password-error.png') });
    await password.fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/auth\/verify/);
    await expect(page.getByRole('heading', { name: 'Check your inbox…' })).toBeVisible();
  });

  await test.step('logged in before confirming: a banner, and "Send again"', async () => {
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/auth\/complete\/signup/);
    const banner = page.getByRole('region', { name: 'Confirm your e-mail' });
    await expect(banner).toContainText('to upload manuscripts and invite readers');
    await banner.getByRole('button', { name: 'Send again' }).click();
    await expect(banner.getByText('A fresh link is on its way.')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('unverified-banner.png') });
  });

  await test.step('the link opened in another browser confirms, but asks it to log in', async () => {
    const mail = await mailbox.waitFor(email, 'Verify your e-mail');
    const other = await browser.newContext();
    const elsewhere = await other.newPage();
    await elsewhere.goto(linkIn(mail, '/auth/verify'));
    await expect(elsewhere).toHaveURL(/\/auth\/login\?verified=1/);
    await expect(elsewhere.getByText('Your e-mail address is confirmed.')).toBeVisible();
    await expect(elsewhere.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await elsewhere.screenshot({ path: testInfo.outputPath('verified-elsewhere.png') });
    await other.close();
    // The first browser is still this account, now confirmed: the banner is gone.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Confirm your e-mail' })).toHaveCount(0);
  });

  await test.step('signing up again with the address answers the same; the owner is told', async () => {
    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto('/auth/signup');
    await stranger.getByLabel('Email').fill(email);
    await stranger.getByLabel('Password').fill('another long passphrase');
    await stranger.getByLabel('Display name').fill('Someone Else');
    await stranger.getByRole('button', { name: 'Sign up' }).click();
    await expect(stranger).toHaveURL(/\/auth\/verify/);
    await expect(stranger.getByRole('heading', { name: 'Check your inbox…' })).toBeVisible();
    await other.close();
    const note = await mailbox.waitFor(email, /Someone tried to sign up/);
    expect(linkIn(note, '/auth/login')).toContain('/auth/login');
  });
});

/** True for a colour whose red part clearly dominates (the error red of the theme). */
function isReddish(colour: string): boolean {
  const numbers = (colour.match(/[\d.]+/g) ?? []).map(Number);
  if (colour.startsWith('oklch')) {
    const [, chroma = 0, hue = 0] = numbers;
    return chroma > 0.08 && (hue < 45 || hue > 340);
  }
  const [r = 0, g = 0, b = 0] = numbers;
  return r > 120 && r > g * 1.5 && r > b * 1.5;
}
