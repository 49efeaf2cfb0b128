// mammoth is the oracle of our DOCX reader: on every document here both paths must give the same
// normalised HTML, table of contents, word count, title and images. Where we read a document
// differently on purpose, the test says so by rewriting mammoth's HTML into ours before
// normalising it, with the reason beside the rewrite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { warmUpDocx } from '../jobs/warm-up-document.ts';
import { convertDocxWithReport } from './docx.ts';
import { mammothHtml } from './docx-mammoth.ts';
import {
  buildWordDocx,
  field,
  paragraph,
  run,
  style,
  WORD_STYLES,
  listDefinition,
} from './docx-test-builder.ts';
import { randomDocx } from './docx-test-random.ts';
import { conversionResult, defaultImageUrl, ImageCollector } from './images.ts';
import { normaliseHtml } from './normalise/index.ts';
import { openPackage } from './package-guard.ts';
import { buildDocx, docxParagraph, escapeXml, readFixture } from './test-factories.ts';
import type { ConversionResult } from './types.ts';

const DOCX_FIXTURES = fileURLToPath(new URL('./fixtures/docx', import.meta.url));
const require = createRequire(import.meta.url);

/** What the two paths must agree on. */
function outcome(result: ConversionResult) {
  const { html, toc, words, title, images } = result;
  return {
    html,
    toc,
    words,
    title,
    images: images.map(({ id, contentType }) => [id, contentType]),
  };
}

async function mammothOutcome(bytes: Uint8Array, rewrite: (html: string) => string) {
  const images = new ImageCollector(defaultImageUrl);
  const { html, sources } = await mammothHtml(bytes, openPackage(bytes, 'docx'), images);
  const document = normaliseHtml(rewrite(html), { images: sources, trustedMarkup: true });
  return outcome(conversionResult(document, images));
}

/** Converts with both readers and expects one result; returns ours. */
async function expectSameAsMammoth(
  bytes: Uint8Array,
  rewrite: (html: string) => string = (html) => html,
): Promise<ConversionResult> {
  const ours = await convertDocxWithReport(bytes, defaultImageUrl);
  expect(ours.reader === 'mammoth' ? ours.reason : ours.reader).toBe('own');
  expect(outcome(ours.result)).toEqual(await mammothOutcome(bytes, rewrite));
  return ours.result;
}

/** A rewrite that must find what it replaces, so that a stale one fails loudly. */
function replacing(...replacements: Array<[search: string, replacement: string]>) {
  return (html: string): string =>
    replacements.reduce((result, [search, replacement]) => {
      expect(result).toContain(search);
      return result.replace(search, replacement);
    }, html);
}

describe('our DOCX reader against mammoth', () => {
  it('reads the small test book alike', async () => {
    await expectSameAsMammoth(readFixture('docx'));
  });

  // LibreOffice's DOCX of each fixtures/docx source (see generate.ts there).
  const rewrites: Record<string, (html: string) => string> = {
    'headings-and-inline.docx': replacing(
      // A paragraph style of the writer's own, based on Heading 1, with LibreOffice's (unnumbered)
      // outline numbering. mammoth knows only headings by name, so it makes a numbered list item
      // of it; we take the outline level the style inherits, as Word does: a chapter heading.
      ['<ol><li>A custom chapter style</li></ol>', '<h1>A custom chapter style</h1>'],
      // An optional hyphen (w:softHyphen), which mammoth writes as U+00AD and we leave out.
      ['hy\u00adphen', 'hyphen'],
    ),
  };
  const fixtures = readdirSync(DOCX_FIXTURES).filter((name) => name.endsWith('.docx'));
  it.each(fixtures)('reads %s alike', async (name) => {
    const bytes = new Uint8Array(readFileSync(join(DOCX_FIXTURES, name)));
    await expectSameAsMammoth(bytes, rewrites[name]);
  });

  // Word's documents from mammoth's own tests, where the package ships them.
  const mammothTestData = join(dirname(require.resolve('mammoth/package.json')), 'test/test-data');
  const wordDocuments = existsSync(mammothTestData)
    ? readdirSync(mammothTestData).filter((name) => name.endsWith('.docx'))
    : [];
  it.skipIf(wordDocuments.length === 0).each(wordDocuments)(
    "reads mammoth's test document %s alike",
    async (name) => {
      const bytes = new Uint8Array(readFileSync(join(mammothTestData, name)));
      const conversion = await convertDocxWithReport(bytes, defaultImageUrl);
      // Strict OOXML, and a style map mammoth embedded in the package, are mammoth's to read.
      if (name === 'strict-format.docx' || name === 'embedded-style-map.docx') {
        expect(conversion.reader).toBe('mammoth');
      } else if (name === 'external-picture.docx') {
        // Deliberately different (issue 10): mammoth leaves a picture linked from outside the
        // file out, without a word; we mark where it stood and say so in the report.
        expect(conversion.reader).toBe('own');
        expect(conversion.result.html).toContain('class="missing-picture"');
        expect(conversion.result.report.notes).toHaveLength(1);
      } else {
        await expectSameAsMammoth(bytes);
      }
    },
  );

  it('reads the DOCX files the other tests build alike', async () => {
    const hyperlink = (id: string, text: string) =>
      `<w:p><w:hyperlink r:id="${id}"><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:hyperlink></w:p>`;
    const documents = [
      // convert.test.ts
      buildDocx(
        [
          docxParagraph('<script>alert(1)</script>'),
          docxParagraph('<img src=x onerror=alert(1)>'),
          hyperlink('rIdJs', 'js link'),
          hyperlink('rIdData', 'data link'),
          hyperlink('rIdOk', 'good link'),
        ].join(''),
        {
          rIdJs: 'javascript:alert(document.cookie)',
          rIdData: 'data:text/html,<script>alert(1)</script>',
          rIdOk: 'https://example.com/',
        },
      ),
      buildDocx(
        docxParagraph('Foreword', 'Heading1') +
          docxParagraph('My Book', 'Title') +
          docxParagraph('Text.'),
      ),
      // archive-safety.test.ts
      buildDocx(docxParagraph('A short manuscript.')),
      buildDocx(docxParagraph('Hello.')),
      buildDocx(''),
      // e2e/xss.spec.ts
      buildDocx(
        [
          docxParagraph('Safe DOCX', 'Title'),
          docxParagraph(`<script>window.__xss = 1</script>`),
          docxParagraph(`<img src=x onerror="window.__xss = 1">`),
          hyperlink('rId9', 'A javascript hyperlink'),
          hyperlink('rId10', 'A data hyperlink'),
          docxParagraph('The end.'),
        ].join(''),
        {
          rId9: 'javascript:window.__xss = 1',
          rId10: 'data:text/html,<script>window.__xss = 1</script>',
        },
      ),
      // the conversion thread's warm-up
      warmUpDocx(200),
      // no styles part: our style map's rules by style id all apply
      buildWordDocx({
        styles: null,
        body:
          paragraph('The Title', { style: 'Title' }) +
          paragraph([run('emphasis', { style: 'Emphasis' }), run(' strong', { style: 'Strong' })]),
      }),
    ];
    for (const bytes of documents) await expectSameAsMammoth(bytes);
  });

  // DOCX_ORACLE_SEEDS=2000 for a longer search; each document takes ~50 ms, most of it mammoth's.
  const seeds = Number(process.env.DOCX_ORACLE_SEEDS) || 60;
  it(`reads ${seeds} random documents alike`, { timeout: 600_000 }, async () => {
    let ours = 0;
    for (let seed = 1; seed <= seeds; seed += 1) {
      const bytes = randomDocx(seed);
      const conversion = await convertDocxWithReport(bytes, defaultImageUrl);
      // A few hold what only mammoth converts (a link in a link, a check box).
      if (conversion.reader === 'mammoth') continue;
      ours += 1;
      const theirs = await mammothOutcome(bytes, (html) => html);
      expect(outcome(conversion.result), `seed ${seed}`).toEqual(theirs);
    }
    expect(ours).toBeGreaterThan(seeds * 0.8);
  });
});

describe('where our DOCX reader differs from mammoth on purpose', () => {
  const custom = (body: string, styles = '') =>
    buildWordDocx({ body, styles: WORD_STYLES + styles });

  it('makes a paragraph with an outline level a heading', async () => {
    // Word's "Outline level: Level 2" on a body paragraph, and a style based on Heading 1.
    // mammoth looks at style names only.
    const { toc } = await expectSameAsMammoth(
      custom(
        paragraph('Part One', { outlineLevel: 1 }) +
          paragraph('Chapter One', { style: 'Chapter' }) +
          paragraph('Contents', { style: 'TOCHeading' }) +
          paragraph('Text.'),
        style('paragraph', 'Chapter', 'Chapter', '<w:basedOn w:val="Heading1"/>'),
      ),
      (html) =>
        html
          .replace('<p>Part One</p>', '<h2>Part One</h2>')
          .replace('<p>Chapter One</p>', '<h1>Chapter One</h1>'),
    );
    // TOC Heading is based on heading 1 but sets "body text" (level 9): not a heading.
    expect(toc.map(({ level, text }) => [level, text])).toEqual([
      [2, 'Part One'],
      [1, 'Chapter One'],
    ]);
  });

  it('takes "heading 7" to "heading 9" for headings', async () => {
    // mammoth's default style map stops at heading 6.
    const { toc } = await expectSameAsMammoth(
      custom(paragraph('Deep', { style: 'Heading7' }) + paragraph('Text.')),
      replacing(['<p>Deep</p>', '<h6>Deep</h6>']),
    );
    expect(toc).toHaveLength(1);
  });

  it('takes the list a paragraph style brings', async () => {
    // mammoth finds a style's list only through the list's w:pStyle, which Word writes but
    // other programs do not always; the style's own w:numPr says the same.
    await expectSameAsMammoth(
      buildWordDocx({
        body: paragraph('First', { style: 'Steps' }) + paragraph('Second', { style: 'Steps' }),
        styles:
          WORD_STYLES +
          style(
            'paragraph',
            'Steps',
            'Steps',
            '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr>',
          ),
        numbering: listDefinition(1, ['decimal']),
      }),
      replacing(['<p>First</p><p>Second</p>', '<ol><li>First</li><li>Second</li></ol>']),
    );
  });

  it('keeps a HYPERLINK field whose address is followed by switches', async () => {
    // mammoth's pattern takes everything up to the last quote: `url" \o "Tip` is no address.
    await expectSameAsMammoth(
      custom(
        `<w:p>${field(' HYPERLINK "https://example.com/" \\o "Tip" ', [run('a link')])}</w:p>`,
      ),
      replacing(['https://example.com/&quot; \\o &quot;Tip', 'https://example.com/']),
    );
  });

  it('keeps the text of simple fields, text direction wrappers and ruby', async () => {
    // mammoth drops these elements with everything in them.
    await expectSameAsMammoth(
      custom(
        paragraph([
          run('See page '),
          `<w:fldSimple w:instr=" PAGEREF x ">${run('7')}</w:fldSimple>`,
        ]) +
          paragraph([
            `<w:dir w:val="rtl">${run('שלום')}</w:dir>`,
            `<w:bdo w:val="ltr">${run(' (hello)')}</w:bdo>`,
          ]) +
          paragraph([
            run('Written in '),
            `<w:ruby><w:rubyPr/><w:rt>${run('kan')}</w:rt><w:rubyBase>${run('漢')}</w:rubyBase></w:ruby>`,
          ]),
      ),
      replacing(
        ['<p>See page </p>', '<p>See page 7</p>'],
        // The second paragraph is empty for mammoth, and gone.
        ['<p>Written in </p>', '<p>שלום (hello)</p><p>Written in 漢</p>'],
      ),
    );
  });

  it('leaves out optional hyphens', async () => {
    // mammoth writes U+00AD; the reader's layout hyphenates by itself, and the word counter
    // would see two words in "hy-phen".
    const { words } = await expectSameAsMammoth(
      custom('<w:p><w:r><w:t>hy</w:t><w:softHyphen/><w:t>phen</w:t></w:r></w:p>'),
      replacing(['hy\u00adphen', 'hyphen']),
    );
    expect(words).toBe(1);
  });

  it('breaks the line at a carriage return', async () => {
    // mammoth drops w:cr, which runs the words on either side together.
    await expectSameAsMammoth(
      custom('<w:p><w:r><w:t>one</w:t><w:cr/><w:t>two</w:t></w:r></w:p>'),
      replacing(['<p>onetwo</p>', '<p>one<br />two</p>']),
    );
  });
});
