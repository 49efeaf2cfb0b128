import { expect, test } from './support/fixtures.ts';

// The demo shelf (seeded on the e2e server's fresh database) gives Discover public manuscripts
// in every category: "The Salt Dragon", "The Quiet Dragon", "The Crooked Dragon", … .

test('Discover: search as you type, filter by genre, page, go back, open a card and its author', async ({
  page,
}) => {
  await page.goto('/discover/');
  const results = page.getByTestId('discover-results');
  await expect(results.locator('[data-manuscript-card]')).toHaveCount(12);
  await expect(page.getByRole('navigation', { name: 'Result pages' })).toBeVisible();

  // Page 2 by the pager; Back returns to page 1.
  await page.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  const pager = page.getByRole('navigation', { name: 'Result pages' });
  await expect(pager.locator('[aria-current="page"]')).toHaveText('2');
  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);

  // A misspelt title, typed: the search runs after the pause and lands in the URL.
  await page.getByLabel('Search').fill('salt dargon');
  await expect(page).toHaveURL(/q=salt\+dargon/);
  await expect(results.locator('[data-manuscript-card]').first()).toContainText('The Salt Dragon');

  // A genre filter narrows it; Back restores the search before it, words and all.
  const before = page.url();
  const genre = page.locator('input[name="genre_ids"]').first();
  await genre.check();
  await expect(page).toHaveURL(/genre_ids=/);
  await page.goBack();
  await expect(page).toHaveURL(before);
  await expect(page.getByLabel('Search')).toHaveValue('salt dargon');
  await expect(page.locator('input[name="genre_ids"]').first()).not.toBeChecked();

  // Nothing found: the empty state says what to try.
  await page.getByLabel('Search').fill('zzzyxwv qqqq');
  await expect(page.getByTestId('discover-empty')).toBeVisible();
  await page.getByTestId('clear-search').click();
  await expect(page.getByLabel('Search')).toHaveValue('');
  await expect(results.locator('[data-manuscript-card]')).toHaveCount(12);

  // The author popup opens from a card; the card opens the reader.
  const card = results.locator('[data-manuscript-card]').first();
  await card.getByRole('button').first().click();
  await expect(page.locator('[data-author-popup]')).toBeVisible();
  await page.keyboard.press('Escape');
  const title = (await card.locator('h3').innerText()).trim();
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+/);
  await expect(page.getByRole('heading', { name: title }).first()).toBeVisible();
});
