import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { csrfOf, newPerson, uploadPublicManuscript } from './support/people.ts';

/**
 * Accessibility (issue 17.8): axe on every page of SPEC §2 that exists, in light and dark,
 * as a visitor, a reader and an author — no serious or critical violation; and the reader
 * walked by keyboard alone.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCX = {
  name: 'small.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  buffer: readFileSync(path.join(root, 'server/src/conversion/fixtures/small.docx')),
};
const THEMES = ['light', 'dark'] as const;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface Found {
  page: string;
  theme: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Serious and critical axe violations of the page as it is now. */
async function seriousViolations(page: Page, label: string, theme: string): Promise<Found[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      page: label,
      theme,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

/** Puts the page in a theme the way the theme switcher does (ms-theme-pref), then reloads. */
async function useTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.evaluate((value) => window.localStorage.setItem('ms-theme-pref', value), theme);
}

/** Opens a URL in each theme and runs axe; `ready` waits for what the page loads. */
async function audit(
  page: Page,
  url: string,
  label: string,
  ready: (page: Page) => Promise<void> = async () => {},
): Promise<Found[]> {
  const found: Found[] = [];
  for (const theme of THEMES) {
    await page.goto(url);
    await useTheme(page, theme);
    // A reload, not a goto: a goto to the same address with a #tab would not load the page.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.locator('main')).toBeVisible();
    await ready(page);
    found.push(...(await seriousViolations(page, label, theme)));
  }
  return found;
}

const readerReady = async (page: Page) => {
  await expect(page.getByTestId('reader-box')).toBeVisible();
  await expect(page.locator('[data-margin-layer] [data-thread]').first()).toBeVisible();
};

function report(found: Found[]): string {
  return found
    .map(
      (item) =>
        `${item.page} [${item.theme}] ${item.impact} ${item.rule}: ${item.help}\n    ${item.targets.join('\n    ')}`,
    )
    .join('\n');
}

async function currentUserId(page: Page): Promise<number> {
  const config = await page.locator('#page-config').textContent();
  const id = (JSON.parse(config ?? '{}') as { currentUserId?: number }).currentUserId;
  if (typeof id !== 'number') throw new Error('no current user in the page configuration');
  return id;
}

/** Selects a paragraph by drag and comments on it from the floating button. */
async function commentOn(page: Page, text: string): Promise<void> {
  const paragraph = page
    .getByTestId('reader-box')
    .locator('p')
    .filter({ hasText: /\w+ \w+ \w+/ })
    .nth(1);
  await paragraph.scrollIntoViewIfNeeded();
  await paragraph.selectText();
  await page.getByTestId('comment-selection').click();
  await page.getByTestId('comment-text').fill(text);
  await page
    .locator('[data-margin-layer]')
    .getByRole('button', { name: 'Comment', exact: true })
    .click();
  await expect(
    page.locator('[data-margin-layer] [data-thread]').filter({ hasText: text }),
  ).toBeVisible();
}

interface World {
  author: Page;
  reader: Page;
  manuscriptId: number;
  authorId: number;
}

let world: World | null = null;

/** An author with a public manuscript and a feedback survey; a reader who commented and answered. */
async function setUp(browser: Browser): Promise<World> {
  if (world) return world;
  const author = await newPerson(browser, 'Ada Axe');
  const reader = await newPerson(browser, 'Reed Axe');
  const manuscriptId = await uploadPublicManuscript(author, 'The Audited Lighthouse', DOCX);
  // More than a screenful of manuscripts: the dashboard shows its sort and filter controls.
  for (let index = 1; index <= 6; index += 1) {
    await uploadPublicManuscript(author, `Shelf note ${index}`, {
      name: `note-${index}.md`,
      mimeType: 'text/markdown',
      buffer: Buffer.from(`# Note ${index}\n\nA short note about the lamp, number ${index}.\n`),
    });
  }
  const survey = await author.request.post('/manuscript/survey', {
    data: {
      manuscript_id: manuscriptId,
      surveyType: 'feedback',
      questions: {
        q1: {
          question: 'Did the opening hold you?',
          questionType: 'multipleChoice',
          order: 0,
          choices: [
            { choiceId: 'yes', choice: 'Yes' },
            { choiceId: 'no', choice: 'No' },
          ],
        },
        q2: { question: 'What would you change?', questionType: 'shortAnswer', order: 1 },
      },
    },
    headers: { 'x-csrf-token': await csrfOf(author.context()) },
  });
  expect(survey.ok(), await survey.text()).toBe(true);
  await author.goto('/dashboard');
  const authorId = await currentUserId(author);
  await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
  const readerId = await currentUserId(reader);
  const answer = await reader.request.post(`/manuscript/${manuscriptId}/survey/feedback`, {
    data: { user_id: readerId, answers: { q1: 'yes', q2: 'A shorter first chapter.' } },
    headers: { 'x-csrf-token': await csrfOf(reader.context()) },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  await expect(reader.getByTestId('reader-box')).toBeVisible();
  await commentOn(reader, 'The lamp is a character already.');
  world = { author, reader, manuscriptId, authorId };
  return world;
}

test.describe.configure({ mode: 'serial' });

test('axe, as a visitor: no serious or critical violation, light and dark', async ({
  browser,
  page,
}) => {
  test.setTimeout(400_000);
  const { manuscriptId, authorId } = await setUp(browser);
  const readerUrl = `/manuscript/document/reader/${manuscriptId}`;
  const found: Found[] = [];

  for (const [url, label] of [
    ['/', 'landing'],
    ['/ourthing', 'our thing'],
    ['/contact', 'contact'],
    ['/terms', 'terms'],
    ['/privacy', 'privacy'],
    ['/auth/login', 'log in'],
    ['/auth/signup', 'sign up'],
    [`/profile/get/${authorId}`, 'public profile (visitor)'],
    [`/profile/get/${authorId}/manuscripts`, 'public profile manuscripts (visitor)'],
    ['/discover/', 'discover'],
    ['/discover/?q=dargon&sort=newest', 'discover with a search'],
    ['/discover/?q=zzzyxwv', 'discover, nothing found'],
    ['/no/such/page', '404'],
  ] as const) {
    found.push(...(await audit(page, url, label)));
  }
  found.push(...(await audit(page, readerUrl, 'reader (visitor)', readerReady)));
  expect(found, report(found)).toEqual([]);
});

test('axe, as a reader: no serious or critical violation, light and dark', async ({ browser }) => {
  test.setTimeout(400_000);
  const { reader, manuscriptId, authorId } = await setUp(browser);
  const readerUrl = `/manuscript/document/reader/${manuscriptId}`;
  const found: Found[] = [];

  found.push(...(await audit(reader, '/dashboard', 'dashboard (reader)')));
  found.push(...(await audit(reader, readerUrl, 'reader (reader)', readerReady)));
  for (const tab of ['profile', 'genres', 'notifications', 'invites']) {
    found.push(
      ...(await audit(reader, `/profile/#${tab}`, `profile #${tab}`, async (page) => {
        await expect(page.getByRole('tabpanel')).toBeVisible();
      })),
    );
  }
  found.push(
    ...(await audit(reader, '/profile/notification/preferences', 'notification preferences')),
  );
  found.push(...(await audit(reader, '/profile/genres', 'genres')));
  found.push(...(await audit(reader, `/profile/get/${authorId}`, 'public profile (reader)')));
  expect(found, report(found)).toEqual([]);
});

test('axe, as an author: no serious or critical violation, light and dark', async ({ browser }) => {
  test.setTimeout(400_000);
  const { author, manuscriptId, authorId } = await setUp(browser);
  const readerUrl = `/manuscript/document/reader/${manuscriptId}`;
  const found: Found[] = [];

  found.push(
    ...(await audit(author, '/dashboard', 'dashboard (author)', async (page) => {
      await expect(page.getByText('The Audited Lighthouse').first()).toBeVisible();
    })),
  );
  await expect(author.locator('[data-manuscript-controls]')).toBeVisible();
  for (const tab of ['manuscript Info', 'Questionnaire', 'Feedback', 'Share']) {
    found.push(
      ...(await audit(author, '/dashboard', `edit dialog, ${tab} tab`, async (page) => {
        await page.getByRole('button', { name: 'Edit The Audited Lighthouse' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('tab', { name: tab }).click();
        await expect(dialog.getByRole('tabpanel')).toBeVisible();
      })),
    );
  }
  found.push(...(await audit(author, '/manuscript/upload', 'upload')));
  found.push(...(await audit(author, readerUrl, 'reader (author)', readerReady)));
  found.push(
    ...(await audit(author, readerUrl, 'reader, comment editor open', async (page) => {
      await readerReady(page);
      const paragraph = page
        .getByTestId('reader-box')
        .locator('p')
        .filter({ hasText: /\w+ \w+ \w+/ })
        .nth(3);
      await paragraph.selectText();
      await page.keyboard.press('Control+Alt+M');
      await expect(page.getByTestId('comment-text')).toBeFocused();
    })),
  );
  found.push(
    ...(await audit(
      author,
      `/manuscript/${manuscriptId}/survey/feedback/responses`,
      'survey answers',
      async (page) => {
        await expect(page.getByText('Reed Axe').first()).toBeVisible();
      },
    )),
  );
  found.push(...(await audit(author, `/profile/get/${authorId}`, 'public profile (author)')));
  expect(found, report(found)).toEqual([]);
});

test('the reader by keyboard alone: paragraphs, a selection, the editor, save, the margin', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { reader, manuscriptId } = await setUp(browser);
  await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
  await expect(reader.locator('[data-connection="live"]')).toBeVisible();
  const box = reader.getByTestId('reader-box');
  const blocks = box.locator(':scope > [tabindex]');

  await test.step('Tab reaches the text; the first paragraph has a visible focus ring', async () => {
    await reader.locator('body').focus();
    for (let tab = 0; tab < 60; tab += 1) {
      await reader.keyboard.press('Tab');
      if (await blocks.first().evaluate((block) => block === document.activeElement)) break;
    }
    await expect(blocks.first()).toBeFocused();
    const outline = await blocks
      .first()
      .evaluate(
        (block) =>
          getComputedStyle(block).outlineStyle + ' ' + getComputedStyle(block).outlineWidth,
      );
    expect(outline).toBe('solid 2px');
    await expect(reader.locator('#paragraph-keys-hint')).toBeVisible();
  });

  await test.step('↓ moves paragraph by paragraph, ↑ back; one tab stop follows the focus', async () => {
    await reader.keyboard.press('ArrowDown');
    await reader.keyboard.press('ArrowDown');
    await reader.keyboard.press('ArrowUp');
    await reader.keyboard.press('ArrowDown');
    await reader.keyboard.press('ArrowDown');
    await expect(blocks.nth(3)).toBeFocused();
    await expect(box.locator(':scope > [tabindex="0"]')).toHaveCount(1);
    await expect(blocks.nth(3)).toHaveAttribute('tabindex', '0');
  });

  let passage = '';
  await test.step('Enter selects the paragraph; Shift+← shrinks it by a word', async () => {
    // A paragraph with words and no comment yet.
    for (let step = 0; step < 30; step += 1) {
      const text = await reader.evaluate(() => document.activeElement?.textContent ?? '');
      const marked = await reader.evaluate(
        () => document.activeElement?.querySelector('mark') !== null,
      );
      if (/\w+ \w+ \w+ \w+/.test(text) && !marked) break;
      await reader.keyboard.press('ArrowDown');
    }
    await reader.keyboard.press('Enter');
    const whole = await reader.evaluate(() => window.getSelection()?.toString() ?? '');
    expect(whole.trim().length).toBeGreaterThan(10);
    await reader.keyboard.press('Shift+ArrowLeft');
    passage = (await reader.evaluate(() => window.getSelection()?.toString() ?? '')).trim();
    expect(passage.length).toBeGreaterThan(0);
    expect(passage.length).toBeLessThan(whole.trim().length);
    expect(whole.trim().startsWith(passage)).toBe(true);
  });

  const text = 'Written without a mouse.';
  await test.step('Enter again opens the editor; Ctrl+Enter saves', async () => {
    await reader.keyboard.press('Enter');
    const editor = reader.getByTestId('comment-text');
    await expect(editor).toBeFocused();
    await reader.keyboard.type(text);
    await reader.keyboard.press('Control+Enter');
    await expect(editor).toHaveCount(0);
    const thread = reader.locator('[data-margin-layer] [data-thread]').filter({ hasText: text });
    await expect(thread).toBeVisible();
    const id = await thread.getAttribute('data-thread');
    const marks = reader.locator(`mark[data-hl="${id}"]`);
    expect((await marks.allTextContents()).join('').trim()).toBe(passage);
  });

  await test.step('the focus is back on the passage; M reaches its margin note, Escape returns', async () => {
    const paragraph = box.locator(':scope > [tabindex="0"]');
    await expect(paragraph).toBeFocused();
    await reader.keyboard.press('m');
    const thread = reader.locator('[data-margin-layer] [data-thread]').filter({ hasText: text });
    await expect(thread).toBeFocused();
    const ring = await thread.evaluate((card) => getComputedStyle(card).outlineStyle);
    expect(ring).toBe('solid');
    // Tab walks the note's controls.
    await reader.keyboard.press('Tab');
    expect(await thread.evaluate((card) => card.contains(document.activeElement))).toBe(true);
    await reader.keyboard.press('Escape');
    await expect(paragraph).toBeFocused();
  });
});

test('prefers-reduced-motion: the inking bar stands still and spinners stop', async ({
  browser,
}) => {
  const { reader, manuscriptId } = await setUp(browser);
  await reader.emulateMedia({ reducedMotion: 'reduce' });
  await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
  await expect(reader.getByTestId('reader-box')).toBeVisible();
  const motion = await reader.evaluate(() => {
    const bar = document.createElement('div');
    bar.className = 'ink-indeterminate';
    const spinner = document.createElement('div');
    spinner.className = 'animate-spin';
    document.body.append(bar, spinner);
    const result = {
      bar: getComputedStyle(bar).animationName,
      spins: getComputedStyle(spinner).animationIterationCount,
    };
    bar.remove();
    spinner.remove();
    return result;
  });
  expect(motion).toEqual({ bar: 'none', spins: '1' });
  await reader.emulateMedia({ reducedMotion: 'no-preference' });
});
