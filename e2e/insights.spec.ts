import { expect, test } from './support/fixtures.ts';
import { paragraphPositions } from './support/margin.ts';
import { csrfOf, newPerson, uploadPublicManuscript } from './support/people.ts';

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

  // Read: half a screen at a time, each stop long enough for the blocks in view to count
  // (READING_MIN_DWELL_MS), until chapter two is well under way (never three).
  const two = reader.getByRole('heading', { name: 'Two', exact: true });
  const three = reader.getByRole('heading', { name: 'Three', exact: true });
  await reader.mouse.move(640, 400);
  for (let step = 0; step < 20; step++) {
    const box = await two.boundingBox();
    if (box && box.y < -400) break;
    await reader.mouse.wheel(0, 360);
    await reader.waitForTimeout(1_050);
  }
  const threeBox = await three.boundingBox();
  expect(threeBox!.y).toBeGreaterThan(800);

  // Two comments on one paragraph of chapter two and one on chapter one: the heat strip.
  const csrf = await csrfOf(reader.context());
  const paragraphs = await paragraphPositions(reader);
  const hot = paragraphs.find((paragraph) => paragraph.text.startsWith('Two paragraph 2.'))!;
  const mild = paragraphs.find((paragraph) => paragraph.text.startsWith('One paragraph 1.'))!;
  for (const [index, paragraph] of [hot, hot, mild].entries()) {
    const words = paragraph.text.slice(0, 13);
    const response = await reader.request.post(`/comments/manuscript/${manuscriptId}`, {
      data: {
        highlight: {
          selection_id: `heat-${manuscriptId}-${index}`,
          startPath: [paragraph.child, 0],
          endPath: [paragraph.child, 0],
          startOffset: 0,
          endOffset: words.length,
          selectedText: words,
          start: paragraph.start,
          end: paragraph.start + words.length,
        },
        comment: `Note ${index + 1}`,
      },
      headers: { 'x-csrf-token': csrf },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }

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

  // The heat strip beside the text in the author's reader: darkest at chapter two's paragraph.
  await author.goto(`/manuscript/document/reader/${manuscriptId}`);
  const strip = author.getByTestId('heat-strip');
  await expect(strip.locator('span')).toHaveCount(2);
  const marks = await strip.locator('span').evaluateAll((spans) =>
    spans.map((span) => ({
      title: span.getAttribute('title'),
      heat: Number((span as HTMLElement).dataset.heat),
      colour: getComputedStyle(span).backgroundColor,
      top: (span as HTMLElement).getBoundingClientRect().top,
    })),
  );
  const [first, second] = marks.sort((a, b) => a.top - b.top);
  expect(first).toMatchObject({ title: '1 highlights, 1 comments' });
  expect(second).toMatchObject({ title: '2 highlights, 2 comments', heat: 1 });
  expect(first!.heat).toBeLessThan(second!.heat);
  // Drawn stronger where it is hotter: the hottest mark in the full accent, the other fainter.
  expect(first!.colour).not.toBe(second!.colour);
  expect(second!.colour).not.toMatch(/rgba|\/ 0\./);
  // Each mark sits beside its paragraph.
  const hotBox = await author.getByText(/^Two paragraph 2\./).boundingBox();
  expect(Math.abs(second!.top - hotBox!.y)).toBeLessThan(4);
  await author.getByText(/^Two paragraph 2\./).scrollIntoViewIfNeeded();
  await author.screenshot({ path: test.info().outputPath('heat-strip.png'), fullPage: false });
});
