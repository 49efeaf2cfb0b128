import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCX = {
  name: 'small.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  buffer: readFileSync(path.join(root, 'server/src/conversion/fixtures/small.docx')),
};

/** Records every CSP violation of the page: the DOM event and Chromium's console report. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.context().addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  return async () => {
    const fromPage = await page.evaluate(
      () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
    );
    return [...fromConsole, ...fromPage];
  };
}

test('the app works under the strict CSP: landing, dashboard and a live reader', async ({
  browser,
}) => {
  test.setTimeout(120_000);

  await test.step('the landing page, as a visitor', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations = await watchViolations(page);
    const response = await page.goto('/');
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await expect(page.locator('#root')).not.toBeEmpty();
    // The theme script (a file) ran before the app: the page has a theme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.locator('#root')).not.toBeEmpty();
    expect(await violations()).toEqual([]);
    await context.close();
  });

  const author = await newPerson(browser, 'Cass Policy');
  const violations = await watchViolations(author);

  await test.step('the dashboard', async () => {
    await author.goto('/dashboard');
    await expect(author.locator('main')).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  await test.step('the reader, with its live socket', async () => {
    const manuscriptId = await uploadPublicManuscript(author, 'Under Policy', DOCX);
    await author.goto(`/manuscript/document/reader/${manuscriptId}`);
    await expect(author.getByTestId('reader-box')).toBeVisible();
    await expect(author.locator('[data-connection="live"]')).toBeVisible();
    await expect(author.getByTestId('reader-box').locator('p').first()).toBeVisible();
    await author.screenshot({ path: path.join(root, 'test-results', 'e2e', 'csp-reader.png') });
    expect(await violations()).toEqual([]);
  });
});
