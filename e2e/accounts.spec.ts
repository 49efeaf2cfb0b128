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
