// The styles of an ODT that matter to us: what a paragraph style makes of its paragraphs (title,
// heading, block quote), what a text style does to its text (italic, bold, raised, hidden), and
// whether each level of a list style is numbered. Styles inherit from their parent style.
import { childElements, type XmlElement } from './odt-xml.ts';

/** Formatting as bits, so that runs of text can be compared and merged cheaply. */
export const ITALIC = 1;
export const BOLD = 2;
export const SUPERSCRIPT = 4;
export const SUBSCRIPT = 8;

/** What a paragraph in a style becomes. */
type ParagraphRole =
  | { kind: 'paragraph' }
  | { kind: 'title' }
  | { kind: 'heading'; level: number }
  | { kind: 'quote' }
  | { kind: 'rule' };

interface ParagraphStyle {
  role: ParagraphRole;
  /** Italics and bold of the whole paragraph (ITALIC | BOLD). */
  format: number;
  hidden: boolean;
  /** The list style the paragraph style brings, for lists that name none. */
  listStyle: string | undefined;
}

/** A text style as changes: bits it turns on, and bits it turns off. */
interface TextStyle {
  on: number;
  off: number;
  hidden: boolean;
}

interface StyleRecord {
  names: string[];
  parent: string | undefined;
  textOn: number;
  textOff: number;
  hidden: boolean | undefined;
  outlineLevel: number | undefined;
  listStyle: string | undefined;
}

const QUOTE_STYLES = new Set(['quotations', 'quote', 'block text', 'intense quote']);
const ITALIC_STYLES = new Set(['emphasis', 'subtle emphasis', 'book title', 'citation']);
const BOLD_STYLES = new Set(['strong emphasis', 'strong']);
const PLAIN_TEXT: TextStyle = { on: 0, off: 0, hidden: false };
const PLAIN_PARAGRAPH: ParagraphStyle = {
  role: { kind: 'paragraph' },
  format: 0,
  hidden: false,
  listStyle: undefined,
};
const MAX_CHAIN = 32;

/** The styles of one document: common ones from styles.xml, automatic ones from content.xml. */
export class OdtStyles {
  private readonly paragraphRecords = new Map<string, StyleRecord>();
  private readonly textRecords = new Map<string, StyleRecord>();
  private readonly listLevels = new Map<string, Map<number, ListLevel>>();
  private readonly paragraphCache = new Map<string, ParagraphStyle>();
  private readonly textCache = new Map<string, TextStyle>();

  /** Reads the style definitions in one container (office:styles or office:automatic-styles). */
  addStyles(container: XmlElement | null): void {
    if (container === null) return;
    for (const child of childElements(container)) {
      if (child.name === 'text:list-style') this.addListStyle(child);
      if (child.name !== 'style:style') continue;
      const family = child.attributes['style:family'];
      const name = child.attributes['style:name'];
      if (name === undefined) continue;
      if (family === 'paragraph') this.paragraphRecords.set(name, readRecord(child, name));
      else if (family === 'text') this.textRecords.set(name, readRecord(child, name));
    }
  }

  /** What a paragraph style makes of its paragraphs. */
  paragraph(name: string | undefined): ParagraphStyle {
    if (name === undefined) return PLAIN_PARAGRAPH;
    let style = this.paragraphCache.get(name);
    if (style === undefined) {
      style = this.resolveParagraph(name);
      this.paragraphCache.set(name, style);
    }
    return style;
  }

  /** What a text (span) style does to its text. */
  text(name: string | undefined): TextStyle {
    if (name === undefined) return PLAIN_TEXT;
    let style = this.textCache.get(name);
    if (style === undefined) {
      style = this.resolveText(name);
      this.textCache.set(name, style);
    }
    return style;
  }

  /** Whether a list level is numbered, and where it starts; undefined for an unknown style. */
  listLevel(listStyle: string | undefined, level: number): ListLevel | undefined {
    if (listStyle === undefined) return undefined;
    const levels = this.listLevels.get(listStyle);
    if (levels === undefined) return undefined;
    // Levels past the tenth use the deepest one the style defines.
    return levels.get(level) ?? levels.get(Math.max(...levels.keys()));
  }

  private resolveParagraph(name: string): ParagraphStyle {
    const chain = this.chain(this.paragraphRecords, name);
    let role: ParagraphRole | undefined;
    let listStyle: string | undefined;
    for (const record of chain) {
      role ??= roleByName(record);
      listStyle ??= record.listStyle;
    }
    const text = combine(chain);
    return {
      role: role ?? { kind: 'paragraph' },
      format: text.on & (ITALIC | BOLD),
      hidden: text.hidden,
      listStyle,
    };
  }

  private resolveText(name: string): TextStyle {
    const chain = this.chain(this.textRecords, name);
    const style = combine(chain);
    // LibreOffice's own character styles mean what they say, whatever their properties.
    for (const record of chain) {
      for (const styleName of record.names) {
        if (ITALIC_STYLES.has(styleName)) style.on |= ITALIC;
        if (BOLD_STYLES.has(styleName)) style.on |= BOLD;
      }
    }
    style.off &= ~style.on;
    return style;
  }

  /** The style and its ancestors, nearest first (a loop in the parents ends the chain). */
  private chain(records: Map<string, StyleRecord>, name: string): StyleRecord[] {
    const chain: StyleRecord[] = [];
    for (
      let record = records.get(name);
      record !== undefined && chain.length < MAX_CHAIN && !chain.includes(record);
      record = record.parent === undefined ? undefined : records.get(record.parent)
    ) {
      chain.push(record);
    }
    return chain;
  }

  private addListStyle(element: XmlElement): void {
    const name = element.attributes['style:name'];
    if (name === undefined) return;
    const levels = new Map<number, ListLevel>();
    for (const child of childElements(element)) {
      const level = Number(child.attributes['text:level'] ?? '1');
      if (!Number.isInteger(level) || level < 1) continue;
      const format = child.attributes['style:num-format'] ?? '';
      const numbered = child.name === 'text:list-level-style-number' && format !== '';
      const start = Number(child.attributes['text:start-value'] ?? '1');
      levels.set(level, { numbered, start: Number.isInteger(start) ? start : 1 });
    }
    if (levels.size > 0) this.listLevels.set(name, levels);
  }
}

interface ListLevel {
  numbered: boolean;
  start: number;
}

function readRecord(element: XmlElement, name: string): StyleRecord {
  const displayName = element.attributes['style:display-name'];
  const names = [decodeStyleName(name).toLowerCase()];
  if (displayName !== undefined) names.push(displayName.toLowerCase());
  const level = Number(element.attributes['style:default-outline-level'] ?? '');
  const record: StyleRecord = {
    names,
    parent: element.attributes['style:parent-style-name'],
    textOn: 0,
    textOff: 0,
    hidden: undefined,
    outlineLevel: Number.isInteger(level) && level > 0 ? level : undefined,
    listStyle: element.attributes['style:list-style-name'] || undefined,
  };
  const properties = childElements(element, 'style:text-properties')[0];
  if (properties !== undefined) readTextProperties(properties.attributes, record);
  return record;
}

function readTextProperties(attributes: Record<string, string>, record: StyleRecord): void {
  const set = (bit: number, value: boolean | undefined) => {
    if (value === true) record.textOn |= bit;
    if (value === false) record.textOff |= bit;
  };
  const fontStyle = attributes['fo:font-style'];
  if (fontStyle !== undefined) set(ITALIC, fontStyle === 'italic' || fontStyle === 'oblique');
  const weight = attributes['fo:font-weight'];
  if (weight !== undefined) set(BOLD, weight === 'bold' || /^[6-9]00$/.test(weight));
  const position = attributes['style:text-position'];
  if (position !== undefined) {
    const first = position.trim().split(/\s+/)[0] ?? '';
    const raised = first === 'super' || (first !== 'sub' && parseFloat(first) > 0);
    const lowered = first === 'sub' || parseFloat(first) < 0;
    set(SUPERSCRIPT, raised);
    set(SUBSCRIPT, lowered);
  }
  const display = attributes['text:display'];
  if (display !== undefined) record.hidden = display === 'none';
}

/** The text properties of a style chain: the nearest style that says something wins. */
function combine(chain: StyleRecord[]): TextStyle {
  let on = 0;
  let off = 0;
  let hidden: boolean | undefined;
  let decided = 0;
  for (const record of chain) {
    on |= record.textOn & ~decided;
    off |= record.textOff & ~decided;
    decided |= record.textOn | record.textOff;
    hidden ??= record.hidden;
  }
  return { on, off, hidden: hidden ?? false };
}

function roleByName(record: StyleRecord): ParagraphRole | undefined {
  for (const name of record.names) {
    if (name === 'title') return { kind: 'title' };
    if (name === 'subtitle') return { kind: 'paragraph' };
    const heading = /^heading (\d+)$/.exec(name);
    if (heading) return { kind: 'heading', level: Number(heading[1]) };
    if (QUOTE_STYLES.has(name)) return { kind: 'quote' };
    // LibreOffice's "Horizontal Line": an empty paragraph with a border, a common scene break.
    if (name === 'horizontal line') return { kind: 'rule' };
  }
  if (record.outlineLevel !== undefined) return { kind: 'heading', level: record.outlineLevel };
  return undefined;
}

/** ODF spells characters that are not allowed in names as `_xx_` (hex): "Heading_20_1". */
function decodeStyleName(name: string): string {
  return name.replace(/_([0-9a-fA-F]{2,4})_/g, (_match, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}
