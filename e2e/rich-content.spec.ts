import { expect, test } from './support/fixtures.ts';
import { newPerson } from './support/people.ts';

// A 24×16 PNG (a red square on white), embedded in the documents as a data: URL.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAH0lEQVR4nGP4TyXAMLIMYmAgjEYNGjWIkEFkgWFsEABWCrxuR9qmXgAAAABJRU5ErkJggg==';
const FORMULA =
  '<math display="block"><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>';

const MARKDOWN = [
  '# The Orchard Theorem',
  'Some *inline* HTML: <strong>bold words</strong> and <u>underlined</u>.',
  `![An apple tree at dusk](data:image/png;base64,${PNG_BASE64})`,
  '![The far hills](https://tracker.example/hills.png)',
  `The keeper wrote it down: ${FORMULA}`,
].join('\n\n');

const HTML = `<!doctype html><html><head><title>Salt and Stars</title></head><body>
<h1>Salt and Stars</h1>
<p>The ratio is <math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>, always.</p>
<p><img src="data:image/png;base64,${PNG_BASE64}" alt="A lantern"></p>
${FORMULA}
</body></html>`;

/**
 * Issue 10 items 4, 5 and 8: Markdown and HTML with embedded pictures and formulas arrive in the
 * reader with both; a remote picture is marked, never loaded, and the upload says so.
 */
test('Markdown and HTML with pictures and math arrive in the reader with both', async ({
  browser,
}) => {
  const page = await newPerson(browser, 'Rhea Rich');
  const remoteRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('tracker.example')) remoteRequests.push(request.url());
  });

  await test.step('Markdown: the report names the remote picture, then the reader', async () => {
    await page.goto('/manuscript/upload');
    await page.getByTestId('manuscript-file').setInputFiles({
      name: 'orchard.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(MARKDOWN),
    });
    await page.getByRole('button', { name: 'Upload manuscript' }).click();
    const report = page.locator('[data-conversion-report]');
    await expect(report).toContainText('1 picture · 1 formula', { timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'What could not be kept' })).toContainText(
      '1 picture on another website was not loaded',
    );
    await report.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('upload-report.png') });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+$/, { timeout: 30_000 });

    const box = page.getByTestId('reader-box');
    const picture = box.locator('img[alt="An apple tree at dusk"]');
    await expect(picture).toHaveAttribute('src', /^\/media\//);
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(24);
    // Inline HTML went through the allow-list: bold stays bold, the underline is plain text.
    await expect(box.locator('strong', { hasText: 'bold words' })).toBeVisible();
    await expect(box.getByText('underlined')).toBeVisible();
    await expect(box.locator('u')).toHaveCount(0);
    // The formula is MathML, laid out by the browser (a superscript sits higher than its base).
    const formula = box.locator('math[display="block"]');
    await expect(formula).toBeVisible();
    const base = await formula.locator('msup > mi').boundingBox();
    const exponent = await formula.locator('msup > mn').boundingBox();
    expect(exponent!.y).toBeLessThan(base!.y);
    // The remote picture is a visible placeholder with its alt text, and was never requested.
    const placeholder = box.locator('.missing-picture');
    await expect(placeholder).toBeVisible();
    await expect(placeholder).toHaveAttribute('aria-label', /The far hills/);
    await formula.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('reader-markdown.png'), fullPage: true });
  });

  await test.step('HTML: nothing lost, so the reader opens at once', async () => {
    await page.goto('/manuscript/upload');
    await page.getByTestId('manuscript-file').setInputFiles({
      name: 'salt.html',
      mimeType: 'text/html',
      buffer: Buffer.from(HTML),
    });
    await page.getByRole('button', { name: 'Upload manuscript' }).click();
    await expect(page).toHaveURL(/\/manuscript\/document\/reader\/\d+$/, { timeout: 30_000 });
    const box = page.getByTestId('reader-box');
    const picture = box.locator('img[alt="A lantern"]');
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(24);
    await expect(box.locator('math')).toHaveCount(2);
    await expect(box.locator('mfrac')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('reader-html.png'), fullPage: true });
  });

  await test.step('the edit view shows the report of the current draft', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Edit Salt and Stars' }).click();
    const dialog = page.getByTestId('edit-manuscript-dialog');
    const report = dialog.locator('[data-conversion-report]');
    await expect(report).toContainText('1 picture · 2 formulas');
    await expect(dialog).toContainText('Nothing was left out.');
    await expect(dialog).toContainText('salt.html');
    await report.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('edit-report.png') });
  });

  expect(remoteRequests).toEqual([]);
  await page.context().close();
});
