// pandoc is the oracle of our ODT and RTF readers (issue 9 item 7), as mammoth is of the DOCX
// reader (docx-oracle.test.ts). Debian's pandoc converts each fixture to HTML; that HTML goes
// through our normaliser, and both results must agree on words, headings, emphasis, strong
// text, footnotes, lists and tables. Where we read a document differently on purpose — mostly
// where pandoc 2.17 loses something we keep — the difference is written down below, with why,
// and applied to pandoc's side before comparing. Without pandoc (not root, not installed) the
// test is skipped with a line saying so; scripts/test-all.sh installs it as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Element, Root, RootContent } from 'hast';
import { afterAll, describe, expect, it } from 'vitest';
import { convertDocument } from './index.ts';
import { collapsedText } from './normalise/hast.ts';
import { normaliseHtml, parseHtml } from './normalise/index.ts';
import { readFixture, readManifest } from './test-factories.ts';

// PANDOC names another pandoc binary (PANDOC=/nowhere shows the skip).
const PANDOC = process.env.PANDOC ?? 'pandoc';
const pandocVersion = (() => {
  const run = spawnSync(PANDOC, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? (run.stdout.split('\n')[0] ?? 'pandoc') : null;
})();
if (pandocVersion === null) {
  console.log(
    'pandoc-oracle.test.ts: skipped, pandoc is not installed (apt-get install pandoc; scripts/test-all.sh does it as root)',
  );
}

/** What both sides must agree on, read from normalised HTML. */
interface Features {
  words: number;
  headings: string[];
  emphasis: string[];
  strong: string[];
  footnotes: string[];
  lists: string[];
  tables: string[][];
}

function features(html: string, words: number): Features {
  const root = parseHtml(html);
  const found: Features = {
    words,
    headings: [],
    emphasis: [],
    strong: [],
    footnotes: [],
    lists: [],
    tables: [],
  };
  // Italic and bold text as runs, however the elements nest (<strong>a <em>b</em></strong> and
  // <strong>a </strong><em><strong>b</strong></em> are the same bold "a b").
  const runs = { emphasis: '', strong: '' };
  const closeRun = (kind: 'emphasis' | 'strong') => {
    const run = runs[kind].replace(/\s+/g, ' ').trim();
    if (run !== '') found[kind].push(run);
    runs[kind] = '';
  };
  const closeRuns = () => {
    closeRun('emphasis');
    closeRun('strong');
  };
  const walk = (node: Root | Element, italic: boolean, bold: boolean) => {
    for (const child of node.children as RootContent[]) {
      if (child.type === 'text') {
        const blank = !/\S/.test(child.value);
        for (const [kind, on] of [
          ['emphasis', italic],
          ['strong', bold],
        ] as const) {
          if (on) runs[kind] += child.value;
          else if (!blank) closeRun(kind);
          else if (runs[kind] !== '') runs[kind] += child.value;
        }
        continue;
      }
      if (child.type !== 'element') continue;
      const text = collapsedText(child);
      if (child.tagName === 'section' && child.properties.id === 'footnotes') {
        closeRuns();
        for (const note of child.children) {
          if (note.type !== 'element') continue;
          for (const item of note.children) {
            if (item.type !== 'element') continue;
            found.footnotes.push(collapsedText(item).replace(/\s*↩$/, ''));
            walk(item, false, false);
            closeRuns();
          }
        }
        continue;
      }
      if (/^h[1-3]$/.test(child.tagName)) found.headings.push(`${child.tagName} ${text}`);
      if (child.tagName === 'ul' || child.tagName === 'ol') {
        const items = child.children.filter(
          (item): item is Element => item.type === 'element' && item.tagName === 'li',
        );
        found.lists.push(
          `${child.tagName}: ${items.map((item) => collapsedText(item)).join(' | ')}`,
        );
      }
      if (child.tagName === 'table') {
        const cells: string[] = [];
        const collect = (table: Element) => {
          for (const cell of table.children) {
            if (cell.type !== 'element') continue;
            if (cell.tagName === 'td' || cell.tagName === 'th') cells.push(collapsedText(cell));
            else collect(cell);
          }
        };
        collect(child);
        found.tables.push(cells);
      }
      const block = /^(?:p|h[1-3]|li|td|th|blockquote)$/.test(child.tagName);
      if (block) closeRuns();
      walk(child, italic || child.tagName === 'em', bold || child.tagName === 'strong');
      if (block) closeRuns();
    }
  };
  walk(root, false, false);
  closeRuns();
  return found;
}

/** A difference we make on purpose: how pandoc's side is changed to ours, and why. */
interface Deliberate {
  why: string;
  apply: (pandoc: Features, ours: Features) => void;
}

interface Case {
  name: string;
  format: 'odt' | 'rtf';
  bytes: () => Uint8Array;
  deliberate: Deliberate[];
}

const manifest = readManifest();
const temporary = mkdtempSync(join(tmpdir(), 'margins-pandoc-oracle-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

// A document of every construct, written as ODT and RTF by pandoc's own writers.
const CONSTRUCTS = `# The Title Chapter

Some *emphasis* and **strong** text, with a note.[^1]

## A Section

- first item
- second *item*

1. one
2. two

| Name | Age |
|------|-----|
| Ann  | 31  |
| Bo   | 42  |

### Third level

Closing paragraph with **bold *and italic*** words.

[^1]: The note's text.
`;

function writtenByPandoc(format: 'odt' | 'rtf'): Uint8Array {
  const source = join(temporary, 'constructs.md');
  const target = join(temporary, `constructs.${format}`);
  writeFileSync(source, CONSTRUCTS);
  execFileSync(PANDOC, ['-f', 'markdown', '-s', '-o', target, source]);
  return new Uint8Array(readFileSync(target));
}

// pandoc 2.17 reads headings and the title of LibreOffice's RTF as bold paragraphs in one-item
// bullet lists (its outline numbering); we read the stylesheet, as the fixture's manifest says.
const rtfHeadingsFromStyles: Deliberate = {
  why: 'LibreOffice RTF headings come from the stylesheet (pandoc: bold one-item lists)',
  apply: (pandoc) => {
    pandoc.headings = manifest.headings.map(({ level, text }) => `h${level} ${text}`);
    pandoc.lists = [];
    const headingTexts = new Set(manifest.headings.map(({ text }) => text));
    pandoc.strong = pandoc.strong.filter((text) => !headingTexts.has(text));
  },
};
// pandoc 2.17's RTF reader leaves footnotes out; we keep them.
const rtfFootnotesKept: Deliberate = {
  why: 'RTF footnotes are kept (pandoc 2.17 drops them)',
  apply: (pandoc, ours) => {
    pandoc.footnotes = ours.footnotes;
    pandoc.words += ours.footnotes.reduce((sum, note) => sum + note.split(/\s+/).length, 0);
  },
};
// A heading all in bold is bold by its paragraph's direct formatting; we keep that as <strong>
// inside the heading, pandoc leaves it out (and it adds no words).
const boldHeadingsKept: Deliberate = {
  why: 'direct bold over a whole heading stays <strong> (pandoc drops it)',
  apply: (pandoc, ours) => {
    const headingTexts = new Set(ours.headings.map((heading) => heading.slice(3)));
    pandoc.strong = [
      ...ours.strong.filter((text) => headingTexts.has(text)),
      ...pandoc.strong,
    ].sort();
    ours.strong.sort();
  },
};

const CASES: Case[] = [
  {
    name: 'small.odt (LibreOffice)',
    format: 'odt',
    bytes: () => readFixture('odt'),
    deliberate: [
      {
        // pandoc makes the Title paragraph plain text; it is the book's title, a heading.
        why: 'the Title paragraph style is the title: an h1 (pandoc: a plain paragraph)',
        apply: (pandoc) => {
          pandoc.headings.unshift(`h1 ${manifest.title}`);
        },
      },
    ],
  },
  {
    name: 'small.rtf (LibreOffice)',
    format: 'rtf',
    bytes: () => readFixture('rtf'),
    deliberate: [
      rtfHeadingsFromStyles,
      rtfFootnotesKept,
      {
        // pandoc makes the Title paragraph a bold paragraph; ours is the h1 of the title.
        why: 'the Title paragraph style is the title: an h1 (pandoc: a bold paragraph)',
        apply: (pandoc) => {
          pandoc.strong = pandoc.strong.filter((text) => text !== manifest.title);
        },
      },
    ],
  },
  {
    name: 'constructs.odt (pandoc)',
    format: 'odt',
    bytes: () => writtenByPandoc('odt'),
    deliberate: [
      {
        // pandoc's ODT reader leaves out table-header-rows; we keep the header row (bold: its
        // cell style), as LibreOffice shows it.
        why: 'table header rows are kept (pandoc 2.17 drops them)',
        apply: (pandoc, ours) => {
          pandoc.tables = ours.tables;
          pandoc.words += 2;
          pandoc.strong = ['Age', 'Name', ...pandoc.strong].sort();
          ours.strong.sort();
        },
      },
    ],
  },
  {
    name: 'constructs.rtf (pandoc)',
    format: 'rtf',
    bytes: () => writtenByPandoc('rtf'),
    deliberate: [rtfFootnotesKept, boldHeadingsKept],
  },
];

describe.skipIf(pandocVersion === null)(`ODT and RTF readers against ${pandocVersion}`, () => {
  it.each(CASES)('$name', async ({ name, format, bytes, deliberate }) => {
    const document = bytes();
    const result = await convertDocument(document, format);
    const ours = features(result.html, result.words);

    const path = join(temporary, `input.${format}`);
    writeFileSync(path, document);
    const pandocHtml = execFileSync(PANDOC, ['-f', format, '-t', 'html5', path], {
      encoding: 'utf8',
    });
    const normalised = normaliseHtml(pandocHtml);
    const pandoc = features(normalised.html, normalised.words);
    for (const difference of deliberate) difference.apply(pandoc, ours);

    // Every construct is there to compare (a comparison of empty lists proves nothing).
    for (const feature of ['headings', 'emphasis', 'strong', 'footnotes', 'tables'] as const) {
      expect(ours[feature].length, feature).toBeGreaterThan(0);
    }
    if (name.startsWith('constructs.odt')) expect(ours.lists).toHaveLength(2);

    expect(ours.headings).toEqual(pandoc.headings);
    expect(ours.emphasis).toEqual(pandoc.emphasis);
    expect(ours.strong).toEqual(pandoc.strong);
    expect(ours.footnotes).toEqual(pandoc.footnotes);
    expect(ours.lists).toEqual(pandoc.lists);
    expect(ours.tables).toEqual(pandoc.tables);
    expect(ours.words).toBe(pandoc.words);
  });
});
