import type { Page } from '@playwright/test';
import { buildDocx, docxParagraph, escapeXml } from '../server/src/conversion/test-factories.ts';
import { expect, test } from './support/fixtures.ts';
import { newPerson, uploadPublicManuscript, type UploadFile } from './support/people.ts';

/**
 * Script inside an uploaded manuscript never runs in a reader's browser: each vector, if it ran,
 * would set window.__xss (or open a dialog). The documents are uploaded through the real server,
 * converted by the real job, and read in Chromium; then we click every link and image too.
 */
const MARK = (vector: string) => `window.__xss = (window.__xss || []).concat('${vector}')`;

const HTML_VECTORS = `<!doctype html><html><head><title>Safe HTML</title>
<script>${MARK('head script')}</script>
<meta http-equiv="refresh" content="0;url=javascript:${MARK('meta refresh')}">
<style>body { background: url("javascript:${MARK('style')}") }</style>
<base href="javascript:${MARK('base')}//">
</head><body onload="${MARK('body onload')}">
<h1>Safe HTML</h1>
<p>A paragraph with <script>${MARK('inline script')}</script> a script inside.</p>
<p><img src="x" onerror="${MARK('img onerror')}"> an image that fails.</p>
<p><a href="javascript:${MARK('javascript link')}">A javascript link</a>,
<a href="JaVaScRiPt&colon;${MARK('encoded link')}">an encoded one</a>,
<a href="data:text/html,<script>${MARK('data link')}</script>">a data link</a>,
<a href="vbscript:msgbox(1)">a vbscript link</a>.</p>
<p><svg onload="${MARK('svg onload')}"><script>${MARK('svg script')}</script></svg> svg.</p>
<iframe src="javascript:${MARK('iframe')}"></iframe>
<iframe srcdoc="<script>parent.${MARK('srcdoc')}</script>"></iframe>
<object data="javascript:${MARK('object')}"></object>
<embed src="javascript:${MARK('embed')}">
<form action="javascript:${MARK('form')}"><button id="xss-submit">Send</button></form>
<details open ontoggle="${MARK('details ontoggle')}"><summary>More</summary>text</details>
<p style="behavior:url(x)" onmouseover="${MARK('onmouseover')}">Hover over me, a reader.</p>
<math><mtext><table><mglyph><style><img src=x onerror="${MARK('mxss')}"></style></mglyph></table></mtext></math>
<noscript><p title="</noscript><img src=x onerror=${MARK('noscript mxss')}>"></p></noscript>
<p>Plain text that says &lt;script&gt;alert(1)&lt;/script&gt; stays text.</p>
</body></html>`;

const MARKDOWN_VECTORS = `# Safe Markdown

<script>${MARK('md script')}</script>

<img src="x" onerror="${MARK('md img')}">

A [javascript link](javascript:${MARK('md link')}) and an ![image](javascript:${MARK('md image')}) and
<javascript:${MARK('md autolink')}> and a [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==).

[reference link][evil]

[evil]: javascript:${MARK('md reference')}

Raw HTML goes through the allow-list; markup in code, such as \`<script>\`, stays text.
`;

function docxVectors(): Buffer {
  const hyperlink = (id: string, text: string) =>
    `<w:p><w:hyperlink r:id="${id}"><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:hyperlink></w:p>`;
  const body = [
    docxParagraph('Safe DOCX', 'Title'),
    docxParagraph(`<script>${MARK('docx text script')}</script>`),
    docxParagraph(`<img src=x onerror="${MARK('docx text img')}">`),
    hyperlink('rId9', 'A javascript hyperlink'),
    hyperlink('rId10', 'A data hyperlink'),
    docxParagraph('The end.'),
  ].join('');
  return Buffer.from(
    buildDocx(body, {
      rId9: `javascript:${MARK('docx hyperlink')}`,
      rId10: `data:text/html,<script>${MARK('docx data')}</script>`,
    }),
  );
}

// Formulas (<math>) are kept since issue 10: normalise/mathml.ts lets only MathML Core through,
// and the attribute checks below still hold inside them.
const UNSAFE_TAGS =
  /^(script|iframe|object|embed|form|button|input|svg|style|meta|base|link|noscript|details|annotation-xml|mglyph)$/;

const DOCUMENTS: Array<{ title: string; file: UploadFile }> = [
  {
    title: 'Safe DOCX',
    file: {
      name: 'vectors.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: docxVectors(),
    },
  },
  {
    title: 'Safe HTML',
    file: { name: 'vectors.html', mimeType: 'text/html', buffer: Buffer.from(HTML_VECTORS) },
  },
  {
    title: 'Safe Markdown',
    file: { name: 'vectors.md', mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN_VECTORS) },
  },
];

/** Everything a vector could have done in this page: marks set, dialogs opened, frames loaded. */
async function traces(page: Page, dialogs: string[]) {
  return {
    marks: await page.evaluate(() => (window as { __xss?: string[] }).__xss ?? []),
    dialogs,
    frames: page.frames().length,
  };
}

test('no script from an uploaded DOCX, HTML or Markdown runs in the reader', async ({
  browser,
}) => {
  // One author and one reader for the three (sign-ups are rate-limited per address).
  const author = await newPerson(browser, 'Vera Vector');
  const reader = await newPerson(browser, 'Rita Reader');
  const dialogs = { author: [] as string[], reader: [] as string[] };
  for (const [who, page] of [
    ['author', author],
    ['reader', reader],
  ] as const) {
    page.on('dialog', (dialog) => {
      dialogs[who].push(dialog.message());
      void dialog.dismiss();
    });
  }

  for (const { title, file } of DOCUMENTS) {
    await test.step(file.name, async () => {
      const manuscriptId = await uploadPublicManuscript(author, title, file);

      // A reader who is not the author, in another browser, reads it.
      await reader.goto(`/manuscript/document/reader/${manuscriptId}`);
      const box = reader.getByTestId('reader-box');
      await expect(box).toBeVisible();
      await expect(box).toContainText(title === 'Safe DOCX' ? 'The end.' : 'Safe');

      // Nothing executable reached the page: only the allow-listed tags, no event handlers, no
      // script URLs.
      const found = await box.evaluate((root) => {
        const tags = new Set<string>();
        const bad: string[] = [];
        for (const node of root.querySelectorAll('*')) {
          tags.add(node.tagName.toLowerCase());
          for (const { name, value } of node.attributes) {
            if (name.startsWith('on')) bad.push(`${name} on ${node.tagName}`);
            if (/^\s*(javascript|vbscript|data):/i.test(value)) bad.push(`${name}=${value}`);
          }
        }
        return { tags: [...tags], bad };
      });
      expect(found.bad).toEqual([]);
      for (const tag of found.tags) expect(tag).not.toMatch(UNSAFE_TAGS);
      // Text that looked like markup is shown as text.
      await expect(box).toContainText('<script>');

      // Clicking every link and image, and hovering every paragraph, runs nothing either.
      for (const link of await box.locator('a').all()) {
        await link.click({ modifiers: ['Control'] }).catch(() => undefined);
      }
      for (const paragraph of (await box.locator('p').all()).slice(0, 20)) {
        await paragraph.hover().catch(() => undefined);
      }
      await reader.waitForTimeout(300);
      expect(await traces(reader, dialogs.reader)).toEqual({ marks: [], dialogs: [], frames: 1 });

      // The author's own view is as safe.
      await author.goto(`/manuscript/document/reader/${manuscriptId}`);
      await expect(author.getByTestId('reader-box')).toBeVisible();
      await author.waitForTimeout(300);
      expect(await traces(author, dialogs.author)).toEqual({ marks: [], dialogs: [], frames: 1 });
    });
  }
  await reader.context().close();
  await author.context().close();
});

// The control: the same HTML, put into a blank page without our sanitising (and without our
// Content-Security-Policy, a second wall behind the sanitiser), does run script, so the checks
// above would see it. The tag and attribute checks above test the sanitiser alone.
test('the vectors are live: unsanitised, they run', async ({ page }) => {
  await page.goto('about:blank');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => void dialog.dismiss());
  await page.setContent(HTML_VECTORS.replace(/<meta http-equiv[^>]*>/, ''));
  await page.waitForTimeout(300);
  const { marks } = await traces(page, dialogs);
  expect(marks).toEqual(expect.arrayContaining(['body onload', 'svg onload', 'srcdoc']));
});
