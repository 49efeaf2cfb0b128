// The RTF document model → a hast tree in the shapes the normaliser knows: headings, the title as
// h1.title, paragraphs, one blockquote per run of quote paragraphs, nested lists, tables, and
// footnotes as pandoc writes them (a footnote-ref link in the text, a footnotes section at the end).
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { element, text } from './normalise/hast.ts';
import type { Block, Inline, ParagraphBlock, TableBlock } from './rtf-flow.ts';
import type { RtfDocument } from './rtf-reader.ts';
import { BOLD, ITALIC, SUBSCRIPT, SUPERSCRIPT } from './rtf-styles.ts';

/** The whole document as one tree; the \info title, if any, as a <title> the normaliser may use. */
export function buildHast(document: RtfDocument): Root {
  const children: RootContent[] = [];
  if (document.title !== null) children.push(element('title', {}, [text(document.title)]));
  appendAll(children, blocksToHast(document.body));
  if (document.notes.length > 0) children.push(notesSection(document.notes));
  return { type: 'root', children };
}

interface OpenList {
  tag: 'ul' | 'ol';
  level: number;
  element: Element;
}

function blocksToHast(blocks: readonly Block[]): Element[] {
  const out: Element[] = [];
  let quote: Element | null = null;
  const lists: OpenList[] = [];
  for (const block of blocks) {
    if (block.kind === 'table') {
      quote = null;
      lists.length = 0;
      out.push(tableToHast(block));
    } else if (block.list !== null) {
      quote = null;
      addListItem(out, lists, block.list, block);
    } else if (block.role === 'quote') {
      lists.length = 0;
      if (quote === null) {
        quote = element('blockquote');
        out.push(quote);
      }
      quote.children.push(element('p', {}, inlinesToHast(block.inlines)));
    } else {
      quote = null;
      lists.length = 0;
      out.push(paragraphToHast(block));
    }
  }
  return out;
}

function paragraphToHast(block: ParagraphBlock): Element {
  const content = inlinesToHast(block.inlines);
  if (block.role === 'title') return element('h1', { className: ['title'] }, content);
  if (block.role === 'heading') return element(`h${block.level}`, {}, content);
  return element('p', {}, content);
}

/** Adds a list item at its level: a deeper level nests a list in the item before it. */
function addListItem(
  out: Element[],
  lists: OpenList[],
  tag: 'ul' | 'ol',
  block: ParagraphBlock,
): void {
  const level = block.listLevel;
  while ((lists[lists.length - 1]?.level ?? -1) > level) lists.pop();
  let current = lists[lists.length - 1];
  if (current !== undefined && current.level === level && current.tag !== tag) {
    lists.pop();
    current = lists[lists.length - 1];
  }
  if (current === undefined || current.level < level) {
    const list = element(tag);
    const parentItem = current?.element.children[current.element.children.length - 1];
    if (parentItem?.type === 'element') parentItem.children.push(list);
    else out.push(list);
    current = { tag, level, element: list };
    lists.push(current);
  }
  current.element.children.push(element('li', {}, inlinesToHast(block.inlines)));
}

function tableToHast(table: TableBlock): Element {
  const rows = table.rows.map((row) =>
    element(
      'tr',
      {},
      row.cells.map((cell) => {
        const [only] = cell;
        const content =
          cell.length === 1 && only ? inlinesToHast(only.inlines) : blocksToHast(cell);
        return element(row.header ? 'th' : 'td', {}, content);
      }),
    ),
  );
  return element('table', {}, [element('tbody', {}, rows)]);
}

function notesSection(notes: readonly Block[][]): Element {
  const items = notes.map((blocks, i) => {
    const number = i + 1;
    const content: ElementContent[] = blocksToHast(blocks);
    const backLink = element('a', { href: `#fnref${number}`, className: ['footnote-back'] }, [
      text('↩'),
    ]);
    const last = content[content.length - 1];
    if (last?.type === 'element' && last.tagName === 'p') last.children.push(text(' '), backLink);
    else content.push(element('p', {}, [backLink]));
    return element('li', { id: `fn${number}` }, content);
  });
  return element('section', { className: ['footnotes'] }, [element('ol', {}, items)]);
}

// Runs are wrapped from the outside in: link, italics, bold, superscript, subscript. Neighbouring
// runs that share a layer share its element, so `<em>a <strong>b</strong></em>` stays one <em>.
const FORMAT_LAYERS: ReadonlyArray<readonly [bit: number, tagName: string]> = [
  [ITALIC, 'em'],
  [BOLD, 'strong'],
  [SUPERSCRIPT, 'sup'],
  [SUBSCRIPT, 'sub'],
];

function inlinesToHast(inlines: readonly Inline[]): ElementContent[] {
  return wrapLinks(inlines, 0, inlines.length);
}

function wrapLinks(inlines: readonly Inline[], start: number, end: number): ElementContent[] {
  const out: ElementContent[] = [];
  for (let i = start; i < end;) {
    const link = inlines[i]?.link ?? null;
    let j = i + 1;
    while (j < end && (inlines[j]?.link ?? null) === link) j += 1;
    const content = wrapFormats(inlines, i, j, 0);
    if (link === null) appendAll(out, content);
    else out.push(element('a', { href: link }, content));
    i = j;
  }
  return out;
}

function wrapFormats(
  inlines: readonly Inline[],
  start: number,
  end: number,
  layer: number,
): ElementContent[] {
  const out: ElementContent[] = [];
  const formatLayer = FORMAT_LAYERS[layer];
  if (formatLayer === undefined) {
    for (let i = start; i < end; i += 1) out.push(leaf(inlines[i] as Inline));
    return out;
  }
  const [bit, tagName] = formatLayer;
  for (let i = start; i < end;) {
    const on = ((inlines[i]?.format ?? 0) & bit) !== 0;
    let j = i + 1;
    while (j < end && (((inlines[j]?.format ?? 0) & bit) !== 0) === on) j += 1;
    const content = wrapFormats(inlines, i, j, layer + 1);
    if (on) out.push(element(tagName, {}, content));
    else appendAll(out, content);
    i = j;
  }
  return out;
}

function leaf(inline: Inline): ElementContent {
  switch (inline.kind) {
    case 'text':
      return text(inline.text);
    case 'break':
      return element('br');
    case 'image':
      return element('img', { src: inline.src, alt: inline.alt });
    case 'note':
      return element('sup', {}, [
        element(
          'a',
          {
            href: `#fn${inline.number}`,
            id: `fnref${inline.number}`,
            className: ['footnote-ref'],
          },
          [text(String(inline.number))],
        ),
      ]);
  }
}

/** Pushes one by one: spreading a long array into push() overflows the call stack. */
function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
