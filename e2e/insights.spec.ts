import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript } from './support/people.ts';

const TITLE = 'Where Readers Stop';

const paragraph = (chapter: string, index: number) =>
  `${chapter} paragraph ${index}. ` +
  'The lamplighter walked the length of the harbour wall, counting ships that were not there, ' +
  'and the sea answered every question with the same patient grey. '.repeat(3);

/** Three chapters; the second long enough that reading it never shows the third. */
const BOOK = [
  '# One',
  ...Array.from({ length: 4 }, (_, index) => paragraph('One', index + 1)),
  '# Two',
  ...Array.from({ length: 14 }, (_, index) => paragraph('Two', index + 1)),
  '# Three',
  ...Array.from({ length: 4 }, (_, index) => paragraph('Three', index + 1)),
].join('\n\n');

test('a reader reads two chapters and stops with a reason; the author sees the curve, the row and the reason', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const author = await newPerson(browser, 'Iris Author');
  const manuscriptId = await uploadPublicManuscript(author, TITLE, {
    name: 'book.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from(BOOK),
  });

  const reader = await newPerson(browser, 'Rowan Reader');
  await reader.setViewportSize({ width: 1280, height: 800 });
  await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
  await reader.getByRole('button', { name: 'Add to reads' }).click();
  await expect(
    reader.getByRole('button', { name: /Remove from your reads|In your reads/ }),
  ).toBeVisible();

  // Read slowly: a little scroll, a pause, until chapter two is well under way (never three).
  const two = reader.getByRole('heading', { name: 'Two', exact: true });
  const three = reader.getByRole('heading', { name: 'Three', exact: true });
  await reader.mouse.move(640, 400);
  for (let step = 0; step < 40; step++) {
    const box = await two.boundingBox();
    if (box && box.y < -400) break;
    await reader.mouse.wheel(0, 250);
    await reader.waitForTimeout(1_100);
  }
  const threeBox = await three.boundingBox();
  expect(threeBox!.y).toBeGreaterThan(800);

  await reader.getByTestId('stop-reading').click();
  const dialog = reader.getByRole('dialog', { name: 'I’m stopping here' });
  await dialog.getByLabel('It got confusing').check();
  await dialog
    .getByLabel('Anything else? (optional)')
    .fill('I lost track of who the lamplighter is.');
  await dialog.getByRole('button', { name: 'Tell the author' }).click();
  await expect(dialog.getByText('Thanks for telling the author.')).toBeVisible();
  // Leaving the page sends the last batch (keepalive).
  await reader.goto('/dashboard');

  await expect
    .poll(
      async () => {
        const response = await author.request.get(`/manuscript/${manuscriptId}/insights`, {
          headers: { accept: 'application/json' },
        });
        const body = (await response.json()) as { chapters: Array<{ reached: number }> };
        return body.chapters.map((chapter) => chapter.reached);
      },
      { timeout: 15_000 },
    )
    .toEqual([1, 1, 0]);

  await author.setViewportSize({ width: 1280, height: 900 });
  await author.goto('/dashboard');
  await author.getByRole('button', { name: `Edit ${TITLE}` }).click();
  const editor = author.getByTestId('edit-manuscript-dialog');
  await editor.getByRole('tab', { name: 'Insights' }).click();
  await expect(editor.getByTestId('insights-dropoff')).toBeVisible();
  await expect(editor.getByTestId('insights-dropoff')).toHaveAttribute(
    'aria-label',
    'Of 1 readers who started, 1 reached chapter 1, 1 reached chapter 2, 0 reached chapter 3.',
  );
  const row = editor.getByTestId('insights-readers').getByRole('row', { name: /Rowan Reader/ });
  await expect(row).toContainText('Two');
  await expect(row).toContainText('Stopped: It got confusing');
  const exits = editor.getByTestId('insights-exits');
  await expect(exits).toContainText('It got confusing');
  await expect(exits).toContainText('I lost track of who the lamplighter is.');
  await author.screenshot({ path: test.info().outputPath('insights.png'), fullPage: false });
});
