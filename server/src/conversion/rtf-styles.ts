// What the RTF header tables say: the styles (stylesheet), which lists are bulleted or numbered
// (listtable, listoverridetable) and the code page of each font (fonttbl).

/** Character formatting bits. */
export const ITALIC = 1;
export const BOLD = 2;
export const SUPERSCRIPT = 4;
export const SUBSCRIPT = 8;

/** A formatting control word's effect: bits to set and bits to clear. */
interface FormatChange {
  set: number;
  clear: number;
}

const FORMAT_CHANGES: Record<string, readonly [on: FormatChange, off: FormatChange]> = {
  i: [
    { set: ITALIC, clear: 0 },
    { set: 0, clear: ITALIC },
  ],
  b: [
    { set: BOLD, clear: 0 },
    { set: 0, clear: BOLD },
  ],
  super: [
    { set: SUPERSCRIPT, clear: SUBSCRIPT },
    { set: 0, clear: SUPERSCRIPT },
  ],
  sub: [
    { set: SUBSCRIPT, clear: SUPERSCRIPT },
    { set: 0, clear: SUBSCRIPT },
  ],
  // LibreOffice writes raised and lowered text as \upN and \dnN.
  up: [
    { set: SUPERSCRIPT, clear: SUBSCRIPT },
    { set: 0, clear: SUPERSCRIPT },
  ],
  dn: [
    { set: SUBSCRIPT, clear: SUPERSCRIPT },
    { set: 0, clear: SUBSCRIPT },
  ],
  nosupersub: [
    { set: 0, clear: SUPERSCRIPT | SUBSCRIPT },
    { set: 0, clear: SUPERSCRIPT | SUBSCRIPT },
  ],
};

/** The effect of \i, \b0, \super… or null for any other control word. */
export function formatChange(word: string, param: number | null): FormatChange | null {
  const changes = FORMAT_CHANGES[word];
  if (changes === undefined) return null;
  return param === 0 ? changes[1] : changes[0];
}

export type ParagraphRole = 'p' | 'heading' | 'title' | 'quote';

/** What a paragraph style makes of its paragraphs, and the formatting it gives them itself. */
interface ParagraphStyle {
  role: ParagraphRole;
  /** The heading level (1–6) when role is 'heading'. */
  level: number;
  format: number;
}

/** One stylesheet entry as read. */
export interface StyleEntry {
  character: boolean;
  number: number;
  basedOn: number | null;
  outlineLevel: number | null;
  formatSet: number;
  formatClear: number;
  name: string;
}

export function newStyleEntry(): StyleEntry {
  return {
    character: false,
    number: 0,
    basedOn: null,
    outlineLevel: null,
    formatSet: 0,
    formatClear: 0,
    name: '',
  };
}

// Style names as Word and LibreOffice write them, in English and a few other languages.
const HEADING_NAME =
  /^(?:heading|überschrift|titre|título|titolo|kop|rubrik|overskrift|otsikko|nadpis|nagłówek|címsor|başlık|заголовок)\s*([1-9])$/i;
const TITLE_NAME = /^(?:title|titel|titre|título|titolo|tytuł|название)$/i;
const QUOTE_NAME =
  /^(?:quotations?|quote|intense quote|block text|block quotation|zitat|citation|cita|citação|citazione|citaat|cytat|цитата)$/i;
const EMPHASIS_NAME = /^(?:emphasis|subtle emphasis|book title|hervorhebung|accentuation)$/i;
const STRONG_NAME = /^(?:strong|strong emphasis|starke hervorhebung|accentuation forte)$/i;
const MAX_INHERITANCE = 20;
const PLAIN_STYLE: ParagraphStyle = { role: 'p', level: 0, format: 0 };

/** The stylesheet: paragraph styles (\sN) and character styles (\csN), with \sbasedon. */
export class StyleSheet {
  private readonly paragraphEntries = new Map<number, StyleEntry>();
  private readonly characterEntries = new Map<number, StyleEntry>();
  private readonly resolved = new Map<number, ParagraphStyle>();
  private readonly characterFormats = new Map<number, number>();

  add(entry: StyleEntry): void {
    entry.name = (entry.name.split(';')[0] ?? '').trim();
    (entry.character ? this.characterEntries : this.paragraphEntries).set(entry.number, entry);
  }

  /** What paragraph style N makes of a paragraph (an unknown style: a plain paragraph). */
  paragraph(number: number): ParagraphStyle {
    let style = this.resolved.get(number);
    if (style === undefined) {
      style = this.resolveParagraph(number, 0);
      this.resolved.set(number, style);
    }
    return style;
  }

  /** The formatting character style N gives; "Emphasis" and "Strong" by name as well. */
  character(number: number): number {
    let format = this.characterFormats.get(number);
    if (format === undefined) {
      format = this.resolveFormat(this.characterEntries, number, 0);
      const name = this.characterEntries.get(number)?.name ?? '';
      if (EMPHASIS_NAME.test(name)) format |= ITALIC;
      if (STRONG_NAME.test(name)) format |= BOLD;
      if (/^intense emphasis$/i.test(name)) format |= ITALIC | BOLD;
      this.characterFormats.set(number, format);
    }
    return format;
  }

  private resolveParagraph(number: number, depth: number): ParagraphStyle {
    const entry = this.paragraphEntries.get(number);
    if (entry === undefined || depth > MAX_INHERITANCE) return PLAIN_STYLE;
    const format = this.resolveFormat(this.paragraphEntries, number, 0);
    const heading = HEADING_NAME.exec(entry.name)?.[1];
    if (TITLE_NAME.test(entry.name)) return { role: 'title', level: 1, format };
    if (heading !== undefined)
      return { role: 'heading', level: Math.min(Number(heading), 6), format };
    if (entry.outlineLevel !== null) return outlineStyle(entry.outlineLevel, format);
    if (QUOTE_NAME.test(entry.name)) return { role: 'quote', level: 0, format };
    if (entry.basedOn === null || entry.basedOn === number) return { ...PLAIN_STYLE, format };
    const parent = this.resolveParagraph(entry.basedOn, depth + 1);
    return { ...parent, format };
  }

  private resolveFormat(entries: Map<number, StyleEntry>, number: number, depth: number): number {
    const entry = entries.get(number);
    if (entry === undefined || depth > MAX_INHERITANCE) return 0;
    const inherited =
      entry.basedOn === null || entry.basedOn === number
        ? 0
        : this.resolveFormat(entries, entry.basedOn, depth + 1);
    return (inherited & ~entry.formatClear) | entry.formatSet;
  }
}

/** A paragraph with outline level N (0-based; 9 is body text) and the given formatting. */
export function outlineStyle(outlineLevel: number, format: number): ParagraphStyle {
  if (outlineLevel < 0 || outlineLevel > 8) return { ...PLAIN_STYLE, format };
  return { role: 'heading', level: Math.min(outlineLevel + 1, 6), format };
}

/** Which lists (\lsN) are bulleted and which numbered, per level. */
export class ListTable {
  /** List id → the number format (\levelnfcN) of each level. */
  readonly formats = new Map<number, number[]>();
  /** \lsN → list id. */
  readonly overrides = new Map<number, number>();

  /** 'ul' or 'ol' for a paragraph in list `ls` at level `level`; null for "no number" lists. */
  kind(ls: number, level: number): 'ul' | 'ol' | null {
    const listId = this.overrides.get(ls);
    const levels = listId === undefined ? undefined : this.formats.get(listId);
    const format = levels?.[level] ?? levels?.[0];
    if (format === undefined || format === 23) return 'ul'; // 23: bullet
    if (format === 255) return null; // 255: no number (outline numbering "None")
    return 'ol';
  }
}
