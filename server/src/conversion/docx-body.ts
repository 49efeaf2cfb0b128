// Reads the body of a DOCX part (the main document, or one note) into the HTML mammoth would
// write for it (docx-html.ts): paragraphs, runs, hyperlinks, fields, tables, images, note
// references. Elements mammoth does not know are left out with their content, as mammoth does;
// what we cannot reproduce faithfully throws UnsupportedDocx, and mammoth converts the file.
import { keptElement, tag, voidElement, wrap, type HtmlNode } from './docx-html.ts';
import { readDrawing, readImageData } from './docx-images.ts';
import { readOfficeMath, readOfficeMathParagraph } from './docx-math.ts';
import {
  childValue,
  fallbackOf,
  first,
  textOf,
  UnsupportedDocx,
  type Relationship,
} from './docx-package.ts';
import type { DocxReaderContext } from './docx-reader.ts';
import { readTable } from './docx-tables.ts';
import type { XmlElement, XmlNode } from './odt-xml.ts';

/** A complex field (w:fldChar begin … separate … end) on the stack of open fields. */
type OpenField = { kind: 'begin' } | { kind: 'hyperlink'; href: string } | { kind: 'other' };

// Read for their content only.
const TRANSPARENT = new Set([
  'w:customXml',
  'w:ins',
  'w:moveTo',
  'w:smartTag',
  'w:object',
  'w:drawing',
  'v:roundrect',
  'v:shape',
  'v:textbox',
  'w:txbxContent',
  'v:group',
  'v:rect',
  // Unlike mammoth, which loses their text: simple fields (their last result) and the
  // right-to-left and bidirectional-override wrappers.
  'w:fldSimple',
  'w:dir',
  'w:bdo',
]);

// Documents holding these go to mammoth: imported chunks of other formats, sub-documents, and
// characters of symbol fonts (which it maps from Wingdings & co.). Math, which mammoth leaves out,
// we read ourselves (docx-math.ts).
const UNSUPPORTED = new Set(['w:altChunk', 'w:subDoc', 'w:sym']);

const BREAK = tag('br');
const NOTE_REFERENCE = tag('sup');

/** The reader of one part; fields, deleted paragraphs and text boxes keep state while it reads. */
export class DocxBodyReader {
  readonly relationships: Map<string, Relationship>;
  private readonly fields: OpenField[] = [];
  private instructions: string[] = [];
  /** The content of paragraphs marked as deleted, which joins the next paragraph. */
  private deletedContent: XmlNode[] = [];
  /** Where the content of w:pict goes: after the paragraph being read (null outside one). */
  private extras: HtmlNode[] | null = null;
  /** How many paragraphs the reader is inside (blocks there would be restructured by a parser). */
  private paragraphDepth = 0;

  constructor(
    readonly context: DocxReaderContext,
    readonly partPath: string,
  ) {
    this.relationships = context.pkg.relationships(partPath);
  }

  /** Reads elements, adding the HTML they make to `out`. */
  readAll(nodes: readonly XmlNode[], out: HtmlNode[]): void {
    for (const node of nodes) if (typeof node !== 'string') this.read(node, out);
  }

  /** Reads in block context (a table cell, a text box), outside any paragraph. */
  readBlocks(nodes: readonly XmlNode[], out: HtmlNode[]): void {
    const depth = this.paragraphDepth;
    this.paragraphDepth = 0;
    this.readAll(nodes, out);
    this.paragraphDepth = depth;
  }

  read(element: XmlElement, out: HtmlNode[]): void {
    const name = element.name;
    if (TRANSPARENT.has(name)) return this.readAll(element.children, out);
    if (UNSUPPORTED.has(name)) throw new UnsupportedDocx(name);
    switch (name) {
      case 'w:p':
        return this.readParagraph(element, out);
      case 'w:r':
        return this.readRun(element, out);
      case 'w:t':
        out.push(textOf(element));
        return;
      case 'w:tab':
        out.push('\t');
        return;
      case 'w:noBreakHyphen':
        out.push('\u2011');
        return;
      // Unlike mammoth, which writes U+00AD: an optional hyphen shows nothing unless a line
      // breaks there, which the reader's own layout decides (the RTF reader drops them too), and
      // the word counter would see two words in it.
      case 'w:softHyphen':
        return;
      case 'w:cr':
        // Unlike mammoth, which drops it and runs the words on either side together.
        out.push(voidElement(BREAK));
        return;
      case 'w:br': {
        const type = element.attributes['w:type'];
        if (type === undefined || type === 'textWrapping') out.push(voidElement(BREAK));
        return;
      }
      case 'w:fldChar':
        return this.readFieldCharacter(element);
      case 'w:instrText':
        this.instructions.push(textOf(element));
        return;
      case 'w:hyperlink':
        return this.readHyperlink(element, out);
      case 'w:tbl':
        if (this.paragraphDepth > 0) throw new UnsupportedDocx('table inside a paragraph');
        out.push(readTable(this, element));
        return;
      case 'w:tr':
      case 'w:tc':
        throw new UnsupportedDocx(`${name} outside a table`);
      case 'w:footnoteReference':
      case 'w:endnoteReference':
        return this.readNoteReference(element, out);
      case 'w:bookmarkStart': {
        const bookmark = element.attributes['w:name'];
        if (bookmark !== '_GoBack') out.push(keptElement(tag('a', { id: String(bookmark) })));
        return;
      }
      case 'mc:AlternateContent':
        return this.readAll(fallbackOf(element)?.children ?? [], out);
      case 'w:sdt':
        if (first(first(element, 'w:sdtPr'), 'w14:checkbox') !== null) {
          throw new UnsupportedDocx('check box');
        }
        return this.readAll(first(element, 'w:sdtContent')?.children ?? [], out);
      case 'w:ruby':
        // Unlike mammoth, which drops ruby text whole: the base text stays, the annotation goes.
        return this.readAll(first(element, 'w:rubyBase')?.children ?? [], out);
      case 'w:pict':
        return this.readPicture(element);
      case 'wp:inline':
      case 'wp:anchor':
        return readDrawing(this, element, out);
      case 'v:imagedata':
        return readImageData(this, element, out);
      case 'm:oMathPara':
        for (const formula of readOfficeMathParagraph(element)) out.push(formula);
        return;
      case 'm:oMath':
        out.push(readOfficeMath(element, false));
        return;
    }
  }

  private readParagraph(element: XmlElement, out: HtmlNode[]): void {
    if (this.paragraphDepth > 0) throw new UnsupportedDocx('paragraph inside a paragraph');
    const properties = first(element, 'w:pPr');
    if (first(first(properties, 'w:rPr'), 'w:del') !== null) {
      for (const child of element.children) this.deletedContent.push(child);
      return;
    }
    let children: readonly XmlNode[] = element.children;
    if (this.deletedContent.length > 0) {
      children = [...this.deletedContent, ...children];
      this.deletedContent = [];
    }
    const styleId = childValue(properties, 'w:pStyle') || null;
    const path = this.context.styleMap.paragraphPath({
      styleId,
      styleName: this.context.styles.paragraphStyleName(styleId),
      numbering: this.numberingOf(properties, styleId),
      outlineLevel: integer(childValue(properties, 'w:outlineLvl')),
    });

    const outerExtras = this.extras;
    const extras: HtmlNode[] = [];
    this.extras = extras;
    this.paragraphDepth += 1;
    const content: HtmlNode[] = [];
    try {
      this.readAll(children, content);
    } finally {
      this.paragraphDepth -= 1;
      this.extras = outerExtras;
    }
    for (const node of wrap(path, content)) out.push(node);
    for (const node of extras) out.push(node);
  }

  /** The list level of a paragraph, found as mammoth finds it, then (unlike mammoth) by style. */
  private numberingOf(properties: XmlElement | null, styleId: string | null) {
    const { numbering, styles } = this.context;
    const numberingProperties = first(properties, 'w:numPr');
    const level = childValue(numberingProperties, 'w:ilvl');
    const numId = childValue(numberingProperties, 'w:numId');
    if (level !== undefined && numId !== undefined) return numbering.findLevel(numId, level);
    if (styleId !== null) {
      const byStyle = numbering.levelForParagraphStyle(styleId);
      if (byStyle !== null) return byStyle;
    }
    if (numId !== undefined) return numbering.findLevel(numId, '0');
    // A paragraph style that brings its own list (w:numPr in the style, or a style it is based on).
    const inherited = styles.numbering(styleId);
    if (inherited.numId === undefined) return null;
    return numbering.findLevel(inherited.numId, level ?? inherited.level ?? '0');
  }

  private readRun(element: XmlElement, out: HtmlNode[]): void {
    const properties = first(element, 'w:rPr');
    const styleId = childValue(properties, 'w:rStyle') || null;
    let content: HtmlNode[] = [];
    this.readAll(element.children, content);
    // A run inside a HYPERLINK field is a link, whatever else it is.
    const href = this.currentFieldLink();
    if (href !== null) content = this.link(href, content);
    const path = this.context.styleMap.runPath({
      styleId,
      styleName: this.context.styles.characterStyleName(styleId),
      bold: isOn(first(properties, 'w:b')),
      italic: isOn(first(properties, 'w:i')),
      strike: isOn(first(properties, 'w:strike')),
      verticalAlign: childValue(properties, 'w:vertAlign'),
    });
    for (const node of wrap(path, content)) out.push(node);
  }

  private readHyperlink(element: XmlElement, out: HtmlNode[]): void {
    const content: HtmlNode[] = [];
    this.readAll(element.children, content);
    const relationshipId = element.attributes['r:id'];
    const anchor = element.attributes['w:anchor'];
    let href: string;
    // Empty attributes count as missing, as in mammoth.
    if (relationshipId) {
      const target = this.relationships.get(relationshipId)?.target;
      // mammoth fails on a link to a relationship that is not there.
      if (target === undefined) throw new UnsupportedDocx(`hyperlink ${relationshipId}`);
      href = anchor ? `${target.replace(/#.*$/s, '')}#${anchor}` : target;
    } else if (anchor) {
      href = `#${anchor}`;
    } else {
      for (const node of content) out.push(node);
      return;
    }
    const frame = element.attributes['w:tgtFrame'];
    for (const node of this.link(href, content, frame)) out.push(node);
  }

  /** A link around content (mammoth's links merge with an equal link just before them). */
  link(href: string, content: HtmlNode[], target?: string): HtmlNode[] {
    return wrap([tag('a', target ? { href, target } : { href }, false)], content);
  }

  private readFieldCharacter(element: XmlElement): void {
    const type = element.attributes['w:fldCharType'];
    if (type === 'begin') {
      this.fields.push({ kind: 'begin' });
      this.instructions = [];
    } else if (type === 'separate') {
      if (this.fields.length === 0) return;
      this.fields.pop();
      this.fields.push(this.parseInstructions());
    } else if (type === 'end') {
      const field = this.fields.pop();
      if (field?.kind === 'begin') this.parseInstructions();
    }
  }

  // As mammoth: one buffer of instructions, reset by every field that begins.
  private parseInstructions(): OpenField {
    const instructions = this.instructions.join('');
    // Unlike mammoth, whose greedy pattern swallows switches after the address ("url" \o "tip").
    const link = /^\s*HYPERLINK\s+(\\l\s+)?(?:"([^"]*)"|([^\\]\S*))/.exec(instructions);
    if (link) {
      const location = link[2] ?? link[3] ?? '';
      return { kind: 'hyperlink', href: link[1] === undefined ? location : `#${location}` };
    }
    if (/FORMCHECKBOX/.test(instructions)) throw new UnsupportedDocx('check box field');
    return { kind: 'other' };
  }

  private currentFieldLink(): string | null {
    for (let i = this.fields.length - 1; i >= 0; i -= 1) {
      const field = this.fields[i] as OpenField;
      if (field.kind === 'hyperlink') return field.href;
    }
    return null;
  }

  /** mammoth's `<sup><a href="#footnote-2" id="footnote-ref-2">[1]</a></sup>`, numbered later. */
  private readNoteReference(element: XmlElement, out: HtmlNode[]): void {
    const kind = element.name === 'w:footnoteReference' ? 'footnote' : 'endnote';
    const id = element.attributes['w:id'] ?? 'undefined';
    const link = tag('a', { href: `#${kind}-${id}`, id: `${kind}-ref-${id}` });
    this.context.noteReferences.set(link, { kind, id });
    for (const node of wrap([NOTE_REFERENCE, link], ['[?]'])) out.push(node);
  }

  /** What mammoth reads of w:pict (text boxes, VML images) comes after the paragraph. */
  private readPicture(element: XmlElement): void {
    if (this.extras === null) return;
    this.readBlocks(element.children, this.extras);
  }
}

/** mammoth's reading of an on/off property: present, and not "false" or "0". */
function isOn(element: XmlElement | null): boolean {
  if (element === null) return false;
  const value = element.attributes['w:val'];
  return value !== 'false' && value !== '0';
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}
