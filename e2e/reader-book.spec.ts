import { expect, test } from './support/fixtures.ts';
import {
  expectCardsBesidePassages,
  expectShowMoreCounts,
  marginLayers,
  paragraphPositions,
} from './support/margin.ts';
import { csrfOf, newPerson, uploadPublicManuscript } from './support/people.ts';

// The reader at book length (issue 18): a long manuscript full of notes, highlights painted in
// idle time, the margin placed from block offsets.

const CHAPTERS = 24;
const PARAGRAPHS = 30;
/** Notes made up front: more than the first chunk drawn at once (paint-in-chunks.ts). */
const NOTES = 100;
const WORDS =
  'the keeper counted lamps along the shore while fog rolled over the quiet harbour'.split(' ');

function book(): Buffer {
  const parts: string[] = [];
  for (let chapter = 1; chapter <= CHAPTERS; chapter++) {
    parts.push(`# Chapter ${chapter}`);
    for (let paragraph = 1; paragraph <= PARAGRAPHS; paragraph++) {
      const words = Array.from(
        { length: 50 + ((chapter * 7 + paragraph * 13) % 40) },
        (_, index) => WORDS[(index * 5 + chapter + paragraph) % WORDS.length],
      );
      parts.push(`Chapter ${chapter}, paragraph ${paragraph}: ${words.join(' ')}.`);
    }
  }
  return Buffer.from(parts.join('\n\n'));
}

/**
 * Idle callbacks and scheduled tasks (the drawing's slices: paint-in-chunks.ts `inSlices`) wait
 * until the test lets them run: the highlights beyond the first chunk stay unpainted for as
 * long as the test needs.
 */
const HOLD_IDLE = `
  window.__idle = [];
  window.requestIdleCallback = (callback) => window.__idle.push(callback);
  window.cancelIdleCallback = (handle) => { window.__idle[handle - 1] = null; };
  window.__tasks = [];
  window.scheduler.postTask = (callback, options) => new Promise((resolve, reject) => {
    const task = { callback, resolve };
    window.__tasks.push(task);
    options?.signal?.addEventListener('abort', () => {
      task.callback = null;
      reject(options.signal.reason);
    });
  });
  window.__flushIdle = () => {
    for (let index = 0; index < window.__idle.length || index < window.__tasks.length; index++) {
      const callback = window.__idle[index];
      window.__idle[index] = null;
      if (callback) callback({ timeRemaining: () => 50, didTimeout: false });
      const task = window.__tasks[index];
      window.__tasks[index] = null;
      if (task && task.callback) task.resolve(task.callback());
    }
  };
`;

test('a book full of notes: comment before every highlight is drawn; the margin follows jumps, resizes and font sizes', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = await newPerson(browser, 'Bea Longbook');
  const manuscriptId = await uploadPublicManuscript(author, 'The Long Harbour', {
    name: 'long-harbour.md',
    mimeType: 'text/markdown',
    buffer: book(),
  });
  const readerUrl = `/manuscript/document/reader/${manuscriptId}`;
  // Highlight ids are global: this manuscript's own, so that a retry makes new ones.
  const noteId = (index: number) => `book-${manuscriptId}-note-${index}`;

  await test.step(`${NOTES} notes spread through the book`, async () => {
    await author.goto(readerUrl);
    const paragraphs = await paragraphPositions(author);
    const step = Math.floor(paragraphs.length / NOTES);
    const csrf = await csrfOf(author.context());
    for (let index = 0; index < NOTES; index++) {
      const { start, text, child } = paragraphs[index * step]!;
      const label = text.slice(0, text.indexOf(':'));
      const response = await author.request.post(`/comments/manuscript/${manuscriptId}`, {
        data: {
          highlight: {
            selection_id: noteId(index),
            // The paragraph's own text node: child `child` of the box, its first child.
            startPath: [child, 0],
            endPath: [child, 0],
            startOffset: 0,
            endOffset: label.length,
            selectedText: label,
            start,
            end: start + label.length,
          },
          comment: `Note on ${label}`,
        },
        headers: { 'x-csrf-token': csrf },
      });
      expect(response.ok(), await response.text()).toBe(true);
    }
  });

  await author.setViewportSize({ width: 1440, height: 900 });
  await author.addInitScript({ content: HOLD_IDLE });
  const box = author.getByTestId('reader-box');

  await test.step('the first words are in the page before the app runs', async () => {
    const response = await author.request.get(readerUrl);
    const html = await response.text();
    expect(html).toMatch(/data-first-screen[\s\S]*Chapter 1, paragraph 1:/);
    // Its fonts come first in the head, before any script: on HTTP/1.1 they queued behind the
    // ~30 module requests, and text whose font is still loading paints invisible.
    const head = html.slice(0, html.indexOf('</head>'));
    const firstScript = head.indexOf('<script');
    for (const face of [
      'literata-latin-wght-normal',
      'literata-latin-wght-italic',
      'inter-latin-wght-normal',
    ]) {
      const font = new RegExp(
        `<link rel="preload" href="([^"]+${face}[^"]+\\.woff2)" as="font" type="font/woff2" crossorigin>`,
      ).exec(head);
      expect(font, `${face} preloaded`).not.toBeNull();
      expect(font!.index, `${face} before the scripts`).toBeLessThan(firstScript);
      expect((await author.request.get(font![1]!)).ok()).toBe(true);
    }
    expect(head.indexOf('rel="modulepreload"')).toBeGreaterThan(firstScript);
  });

  await test.step('the first screen is the largest contentful paint, not the app’s copy of it', async () => {
    const reader = await author.context().newPage();
    await reader.addInitScript({
      content: `
        window.__lcp = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            window.__lcp.push(!!(entry.element && entry.element.closest('[data-first-screen]') && document.querySelector('#root > [data-first-screen]')));
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      `,
    });
    await reader.goto(readerUrl);
    await expect(reader.getByTestId('reader-box')).toHaveAttribute('data-highlights', /.+/);
    // Taken while the server's first screen was still in the page (the app waits for it).
    const entries = await reader.evaluate(() => (window as unknown as { __lcp: boolean[] }).__lcp);
    expect(entries[0], 'the first LCP entry is the server-rendered first screen').toBe(true);
    await reader.close();
  });

  await test.step('a chapter near the end: select and comment before every highlight is drawn', async () => {
    await author.goto(readerUrl);
    await expect(box).toHaveAttribute('data-highlights', 'painting');
    await expect(author.locator('[data-connection="live"]')).toBeVisible();
    const drawnAtFirst = await box.evaluate(
      (element) =>
        new Set(
          Array.from(
            element.querySelectorAll<HTMLElement>('mark[data-hl]'),
            (mark) => mark.dataset.hl,
          ),
        ).size,
    );
    expect(drawnAtFirst).toBeLessThan(NOTES);

    await author
      .locator('aside[aria-label="Contents and bookmarks"]')
      .getByRole('link', { name: `Chapter ${CHAPTERS - 1}`, exact: true })
      .click();
    const heading = box.getByRole('heading', { name: `Chapter ${CHAPTERS - 1}`, exact: true });
    await expect
      .poll(async () => (await heading.boundingBox())?.y ?? -1, { message: 'the TOC jump lands' })
      .toBeGreaterThan(60);
    await expect.poll(async () => (await heading.boundingBox())?.y ?? 9999).toBeLessThan(200);

    const paragraph = box.getByText(`Chapter ${CHAPTERS - 1}, paragraph 4:`);
    await paragraph.selectText();
    await author.getByTestId('comment-selection').click();
    await author.getByTestId('comment-text').fill('Written before the last highlight was drawn.');
    await author
      .locator('[data-margin-layer]')
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    const card = author
      .locator('[data-margin-layer] [data-thread]')
      .filter({ hasText: 'Written before the last highlight was drawn.' });
    await expect(card).toBeVisible();
    // Still drawing the others: the reader did not wait for them.
    await expect(box).toHaveAttribute('data-highlights', 'painting');
    const id = (await card.getAttribute('data-thread'))!;
    await expect(author.locator(`mark[data-hl="${id}"]`).first()).toBeVisible();
    // Beside its passage once the blocks laid out around it have settled (on a busy machine
    // the lazy layout's steps can still be moving the text for a moment after the save).
    await expect
      .poll(
        async () =>
          Math.abs(
            (await card.boundingBox())!.y -
              (await author.locator(`mark[data-hl="${id}"]`).first().boundingBox())!.y,
          ),
        { message: 'the new card sits beside its passage' },
      )
      .toBeLessThanOrEqual(3);
  });

  await test.step('the rest are drawn in slices once they may run', async () => {
    await author.evaluate('window.__flushIdle()');
    await expect(box).toHaveAttribute('data-highlights', 'painted');
    const drawn = await box.evaluate(
      (element) =>
        new Set(
          Array.from(
            element.querySelectorAll<HTMLElement>('mark[data-hl]'),
            (mark) => mark.dataset.hl,
          ),
        ).size,
    );
    expect(drawn).toBe(NOTES + 1);
  });

  await test.step('after a jump from the contents, the cards are beside their passages', async () => {
    await author
      .locator('aside[aria-label="Contents and bookmarks"]')
      // Its first paragraph has a note (every 7th paragraph has one: 14 × 30 = 60 × 7).
      .getByRole('link', { name: 'Chapter 15', exact: true })
      .click();
    await expect
      .poll(
        async () =>
          (await box.getByRole('heading', { name: 'Chapter 15', exact: true }).boundingBox())?.y ??
          -1,
      )
      .toBeLessThan(200);
    await expectCardsBesidePassages(author, 'after the jump');
    await expectShowMoreCounts(author);
  });

  await test.step('the margin column is painted with the page, not as a layer per card', async () => {
    // The contents column is a sticky box (a layer of its own). Painted before the margin, it
    // made Chromium give every box that might overlap it a layer too: the margin column, each
    // card, each card's buttons. Scrolling then stuttered with the margin column (issue 18).
    // (The "N more" bars are sticky boxes themselves: layers of their own by right.)
    expect(await marginLayers(author), 'layers in the margin column').toEqual([]);
  });

  await test.step('after a fling through the book, the cards are placed once it stops', async () => {
    // 30 frames of ~200 px or more, ending with a note's passage mid-window: the margin waits
    // for the fling to slow (scrollReadDelay), then places the cards there.
    await author
      .locator(`mark[data-hl="${noteId(95)}"]`)
      .first()
      .evaluate(
        (mark) =>
          new Promise<void>((resolve) => {
            const from = window.scrollY;
            const to = from + mark.getBoundingClientRect().top - window.innerHeight / 2;
            let frame = 0;
            const tick = () => {
              frame += 1;
              window.scrollTo(0, from + ((to - from) * frame) / 30);
              if (frame < 30) requestAnimationFrame(tick);
              else resolve();
            };
            requestAnimationFrame(tick);
          }),
      );
    await expectCardsBesidePassages(author, 'after the fling');
    await expectShowMoreCounts(author);
  });

  await test.step('after a resize', async () => {
    await author.setViewportSize({ width: 1290, height: 760 });
    await expectCardsBesidePassages(author, 'after the resize', noteId(70));
    await expectShowMoreCounts(author);
  });

  await test.step('after the page above the text changes height', async () => {
    // As the toolbar does when "Reconnecting…" wraps it onto a second line and "Live" brings
    // it back: the text moves without changing size.
    await author
      .locator('article header, article > :first-child')
      .first()
      .evaluate((header) => {
        const line = document.createElement('div');
        line.style.height = '33px';
        line.dataset.testLine = '';
        header.append(line);
      });
    await expectCardsBesidePassages(author, 'after a line above the text appears', noteId(60));
    await author.locator('[data-test-line]').evaluate((line) => line.remove());
    await expectCardsBesidePassages(author, 'after it goes again', noteId(60));
  });

  await test.step('after a font-size change', async () => {
    // As a reader's larger browser font size does: every rem grows, the lines wrap anew.
    await author.evaluate(() => {
      document.documentElement.style.fontSize = '22px';
    });
    await expectCardsBesidePassages(author, 'after the font-size change', noteId(30));
    await expectShowMoreCounts(author);
    await author.screenshot({ path: 'test-results/e2e/reader-book.png' });
  });
});
