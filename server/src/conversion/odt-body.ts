// Walks the body of content.xml and builds the hast tree the normaliser takes: paragraphs,
// headings, block quotes, lists, tables, images, links and footnotes in the shapes it knows.
import type { Element, ElementContent } from 'hast';
import { element, hasVisibleContent, text } from './normalise/hast.ts';
import { InlineRuns } from './odt-inline.ts';
import { splitListAtHeadings } from './odt-lists.ts';
import { ITALIC, BOLD, type OdtStyles } from './odt-styles.ts';
import { childElements, type XmlElement, type XmlNode } from './odt-xml.ts';

/** The public URL of a draw:image, or null when it is outside the package or not a safe image. */
export type ImageResolver = (image: XmlElement) => string | null;

/** The formula of a draw:object as hast `<math>`, or null (odt-math.ts). */
export type ObjectResolver = (object: XmlElement) => Element | null;

// Left out with everything inside: generated indexes (we make our own table of contents),
// comments, the record of tracked changes (deleted text), declarations, forms, and drawings.
const SKIPPED = new Set([
  'text:table-of-content',
  'text:illustration-index',
  'text:table-index',
  'text:object-index',
  'text:user-index',
  'text:alphabetical-index',
  'text:bibliography',
  'text:tracked-changes',
  'office:annotation',
  'office:annotation-end',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:dde-connection-decls',
  'office:forms',
  'office:scripts',
  'table:named-expressions',
  'text:note-citation',
  'text:ruby-text',
  'text:hidden-text',
  'text:hidden-paragraph',
  'text:number',
  'svg:title',
  'svg:desc',
  'office:binary-data',
  'draw:object',
  'draw:object-ole',
  'draw:plugin',
  'draw:applet',
  'draw:floating-frame',
  'draw:custom-shape',
  'draw:rect',
  'draw:line',
  'draw:polyline',
  'draw:polygon',
  'draw:regular-polygon',
  'draw:path',
  'draw:circle',
  'draw:ellipse',
  'draw:connector',
  'draw:caption',
  'draw:measure',
  'draw:control',
  'draw:page-thumbnail',
  'draw:contour-polygon',
  'draw:contour-path',
  'draw:image-map',
]);

const MAX_REPEAT = 100;
const MAX_SPACES = 100;

/** Builds the blocks of one document; notes are gathered on the way and added at the end. */
export class OdtBodyReader {
  private readonly notes: Element[] = [];
  private readonly quoteGroups = new WeakSet<Element>();
  /** The number after the last item of each top-level list, by list id and by list style. */
  private readonly nextNumber = new Map<string, number>();

  constructor(
    private readonly styles: OdtStyles,
    private readonly resolveImage: ImageResolver,
    private readonly resolveObject: ObjectResolver = () => null,
  ) {}

  /** The blocks of office:text, then the footnotes section if there are notes. */
  readDocument(body: XmlElement): ElementContent[] {
    const blocks: ElementContent[] = [];
    this.readBlocks(body.children, blocks);
    if (this.notes.length > 0) {
      blocks.push(
        element('section', { className: ['footnotes'] }, [element('ol', {}, this.notes)]),
      );
    }
    return blocks;
  }

  private readBlocks(nodes: readonly XmlNode[], out: ElementContent[]): void {
    for (const node of nodes) {
      if (typeof node === 'string' || SKIPPED.has(node.name)) continue;
      switch (node.name) {
        case 'text:p':
        case 'text:h':
          this.readParagraph(node, out);
          break;
        case 'text:list':
          out.push(...splitListAtHeadings(this.readList(node, 1, undefined)));
          break;
        case 'table:table':
          out.push(this.readTable(node));
          break;
        case 'text:section':
          if (node.attributes['text:display'] !== 'none') this.readBlocks(node.children, out);
          break;
        case 'draw:frame':
        case 'draw:a':
        case 'draw:g': {
          // A frame anchored to the page stands among the paragraphs.
          const runs = new InlineRuns();
          const following: ElementContent[] = [];
          this.readInline([node], runs, 0, following);
          if (!runs.isEmpty()) out.push(element('p', {}, runs.finish()));
          out.push(...following);
          break;
        }
        default:
          this.readBlocks(node.children, out);
      }
    }
  }

  private readParagraph(node: XmlElement, out: ElementContent[]): void {
    const style = this.styles.paragraph(node.attributes['text:style-name']);
    if (style.hidden) return;
    const role = style.role;
    const isHeading = node.name === 'text:h' || role.kind === 'heading';
    const isPlain = role.kind !== 'title' && role.kind !== 'heading';
    const runs = new InlineRuns();
    // Text boxes inside the paragraph hold paragraphs of their own: they follow it.
    const following: ElementContent[] = [];
    this.readInline(node.children, runs, isPlain && !isHeading ? style.format : 0, following);
    const content = runs.finish();

    let block: Element;
    if (role.kind === 'rule' && !hasVisibleContent(content)) {
      block = element('hr');
    } else if (role.kind === 'title') {
      block = element('h1', { className: ['title'] }, content);
    } else if (isHeading) {
      const level = headingLevel(node, role.kind === 'heading' ? role.level : undefined);
      block = element(`h${level}`, {}, content);
    } else {
      block = element('p', {}, content);
    }

    if (role.kind === 'quote' && !isHeading) {
      const previous = out[out.length - 1];
      if (previous?.type === 'element' && this.quoteGroups.has(previous)) {
        previous.children.push(block);
      } else {
        const quote = element('blockquote', {}, [block]);
        this.quoteGroups.add(quote);
        out.push(quote);
      }
    } else {
      out.push(block);
    }
    out.push(...following);
  }

  private readInline(
    nodes: readonly XmlNode[],
    runs: InlineRuns,
    format: number,
    following: ElementContent[],
  ): void {
    for (const node of nodes) {
      if (typeof node === 'string') {
        runs.text(node, format);
        continue;
      }
      if (SKIPPED.has(node.name)) continue;
      switch (node.name) {
        case 'text:span': {
          const style = this.styles.text(node.attributes['text:style-name']);
          if (style.hidden) break;
          this.readInline(node.children, runs, (format | style.on) & ~style.off, following);
          break;
        }
        case 'text:s': {
          const count = Number(node.attributes['text:c'] ?? '1');
          const spaces = Number.isInteger(count) ? Math.min(Math.max(count, 1), MAX_SPACES) : 1;
          runs.text(' '.repeat(spaces), format);
          break;
        }
        case 'text:tab':
          runs.text(' ', format);
          break;
        case 'text:line-break':
          runs.neutral(element('br'));
          break;
        case 'text:a': {
          const inner = new InlineRuns();
          this.readInline(node.children, inner, format, following);
          const href = node.attributes['xlink:href'];
          // In-document links (#bookmark) lead nowhere in the reader; the normaliser judges others.
          if (href !== undefined && href !== '' && !href.startsWith('#')) runs.link(href, inner);
          else inner.moveInto(runs);
          break;
        }
        case 'text:note':
          runs.add(this.readNote(node), format & (ITALIC | BOLD));
          break;
        case 'draw:frame':
          this.readFrame(node, runs, following);
          break;
        case 'text:p':
        case 'text:h':
          // Not allowed here by the schema; keep the text apart from its neighbours.
          runs.text(' ', format);
          this.readInline(node.children, runs, format, following);
          runs.text(' ', format);
          break;
        default:
          // Spans of other kinds, fields (dates, page numbers, cross-references): their text.
          this.readInline(node.children, runs, format, following);
      }
    }
  }

  private readFrame(frame: XmlElement, runs: InlineRuns, following: ElementContent[]): void {
    const alt = frameAlt(frame);
    // A formula object: its MathML, not the picture of it kept beside it as a replacement.
    for (const object of childElements(frame, 'draw:object')) {
      const formula = this.resolveObject(object);
      if (formula === null) continue;
      runs.neutral(formula);
      return;
    }
    let imageShown = false;
    let refusedLink: string | null = null;
    for (const child of childElements(frame)) {
      if (child.name === 'draw:image' && !imageShown) {
        // Several images are alternatives (an SVG and its PNG fallback): the first we accept.
        const src = this.resolveImage(child);
        if (src === null) {
          refusedLink ??= child.attributes['xlink:href'] ?? '';
          continue;
        }
        runs.neutral(element('img', { src, alt }));
        imageShown = true;
      } else if (child.name === 'draw:text-box') {
        this.readBlocks(child.children, following);
      }
    }
    // A picture we cannot show is marked where it stood (normalise/pictures.ts): a link to
    // another website as remote, anything else (EMF, WMF, a missing entry) as not shown.
    if (!imageShown && refusedLink !== null) {
      const remote = /^(?:https?:)?\/\//i.test(refusedLink.trim());
      runs.neutral(element('img', { src: remote ? refusedLink.trim() : '', alt }));
    }
  }

  private readNote(note: XmlElement): Element {
    const number = this.notes.length + 1;
    const blocks: ElementContent[] = [];
    // Reserve the number before reading the body, in case the body holds a note of its own.
    const item = element('li', { id: `fn${number}` }, blocks);
    this.notes.push(item);
    for (const body of childElements(note, 'text:note-body'))
      this.readBlocks(body.children, blocks);
    const backLink = element('a', { href: `#fnref${number}`, className: ['footnote-back'] }, [
      text('↩'),
    ]);
    const last = blocks[blocks.length - 1];
    if (last?.type === 'element' && last.tagName === 'p') last.children.push(text(' '), backLink);
    else blocks.push(element('p', {}, [backLink]));
    return element(
      'a',
      { href: `#fn${number}`, id: `fnref${number}`, className: ['footnote-ref'] },
      [text(String(number))],
    );
  }

  private readList(list: XmlElement, level: number, inheritedStyle: string | undefined): Element {
    const listStyle =
      list.attributes['text:style-name'] ?? inheritedStyle ?? this.paragraphListStyle(list);
    const kind = this.styles.listLevel(listStyle, level);
    const items: Element[] = [];
    let start = kind?.start ?? 1;
    if (level === 1) start = this.continuedNumber(list, listStyle) ?? start;
    for (const item of childElements(list)) {
      if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
      const startValue = Number(item.attributes['text:start-value']);
      if (items.length === 0 && Number.isInteger(startValue)) start = startValue;
      const content: ElementContent[] = [];
      for (const child of childElements(item)) {
        if (child.name === 'text:list') content.push(this.readList(child, level + 1, listStyle));
        else this.readBlocks([child], content);
      }
      // An item that only holds a deeper list continues the item before it.
      const previous = items[items.length - 1];
      if (previous !== undefined && content.every(isList)) previous.children.push(...content);
      else items.push(element('li', {}, content));
    }
    if (level === 1) {
      const next = start + items.length;
      const id = list.attributes['xml:id'];
      if (id !== undefined) this.nextNumber.set(`id ${id}`, next);
      if (listStyle !== undefined) this.nextNumber.set(`style ${listStyle}`, next);
    }
    const numbered = kind?.numbered ?? false;
    const properties = numbered && start !== 1 ? { start } : {};
    return element(numbered ? 'ol' : 'ul', properties, items);
  }

  /** Where a list that goes on from an earlier one starts counting; undefined for a new list. */
  private continuedNumber(list: XmlElement, listStyle: string | undefined): number | undefined {
    const earlier = list.attributes['text:continue-list'];
    if (earlier !== undefined) return this.nextNumber.get(`id ${earlier}`);
    if (list.attributes['text:continue-numbering'] !== 'true' || listStyle === undefined) {
      return undefined;
    }
    return this.nextNumber.get(`style ${listStyle}`);
  }

  /** The list style of the list's first paragraph, for lists that name none. */
  private paragraphListStyle(list: XmlElement): string | undefined {
    for (const item of childElements(list)) {
      for (const paragraph of childElements(item)) {
        if (paragraph.name !== 'text:p' && paragraph.name !== 'text:h') continue;
        return this.styles.paragraph(paragraph.attributes['text:style-name']).listStyle;
      }
    }
    return undefined;
  }

  private readTable(table: XmlElement): Element {
    const head: Element[] = [];
    const body: Element[] = [];
    const readRows = (container: XmlElement, rows: Element[]) => {
      for (const child of childElements(container)) {
        if (child.name === 'table:table-row') {
          const row = this.readRow(child, rows === head);
          repeat(row, child.attributes['table:number-rows-repeated'], (copy) => rows.push(copy));
        } else if (child.name === 'table:table-header-rows') {
          readRows(child, head);
        } else if (child.name === 'table:table-rows' || child.name === 'table:table-row-group') {
          readRows(child, rows);
        }
      }
    };
    readRows(table, body);
    const sections: Element[] = [];
    if (head.length > 0) sections.push(element('thead', {}, head));
    if (body.length > 0) sections.push(element('tbody', {}, body));
    return element('table', {}, sections);
  }

  private readRow(row: XmlElement, isHead: boolean): Element {
    const cells: Element[] = [];
    for (const cell of childElements(row, 'table:table-cell')) {
      const content: ElementContent[] = [];
      this.readBlocks(cell.children, content);
      const properties: Record<string, number> = {};
      const columns = Number(cell.attributes['table:number-columns-spanned']);
      const rows = Number(cell.attributes['table:number-rows-spanned']);
      if (columns > 1) properties.colSpan = columns;
      if (rows > 1) properties.rowSpan = rows;
      const built = element(isHead ? 'th' : 'td', properties, content);
      repeat(built, cell.attributes['table:number-columns-repeated'], (copy) => cells.push(copy));
    }
    return element('tr', {}, cells);
  }
}

function headingLevel(node: XmlElement, styleLevel: number | undefined): number {
  const level = Number(node.attributes['text:outline-level'] ?? styleLevel ?? 1);
  if (!Number.isInteger(level) || level < 1) return 1;
  return Math.min(level, 6);
}

function frameAlt(frame: XmlElement): string {
  for (const name of ['svg:title', 'svg:desc']) {
    const [description] = childElements(frame, name);
    const value = description?.children.filter((child) => typeof child === 'string').join('');
    if (value) return value.replace(/\s+/g, ' ').trim();
  }
  return '';
}

function isList(node: ElementContent): boolean {
  return node.type === 'element' && (node.tagName === 'ul' || node.tagName === 'ol');
}

/** Adds a row or cell as many times as ODF's repeat count says, within reason. */
function repeat(node: Element, count: string | undefined, add: (copy: Element) => void): void {
  const times = Math.min(Math.max(Number(count ?? '1') || 1, 1), MAX_REPEAT);
  add(node);
  for (let i = 1; i < times; i += 1) add(structuredClone(node));
}
