// Reads the RTF header tables as their control words arrive (font table, stylesheet, list table,
// list overrides) and answers what they decide: the code page of a font, and what a paragraph is.
import type { ParagraphShape } from './rtf-flow.ts';
import type { GroupState } from './rtf-state.ts';
import {
  formatChange,
  ListTable,
  outlineStyle,
  StyleSheet,
  type StyleEntry,
} from './rtf-styles.ts';
import { charsetCodePage, decoderFor } from './rtf-text.ts';

/** A paragraph as it ends: its shape, whether it is in a table cell, its style's formatting. */
type ParagraphEnd = [shape: ParagraphShape, inTable: boolean, styleFormat: number];

export class RtfHeader {
  readonly styles = new StyleSheet();
  readonly lists = new ListTable();
  /** \ansicpgN (or \mac, \pc, \pca). */
  documentCodePage = 1252;
  /** \deffN. */
  defaultFont = -1;
  private readonly fontCodePages = new Map<number, number>();
  /** Fonts with a \cpgN, which says more than their \fcharsetN (in whichever order they come). */
  private readonly fontsWithCodePage = new Set<number>();
  private lastCodePage = 1252;
  private lastDecoder = decoderFor(1252);
  private fontBeingRead = 0;
  private listBeingRead: number[] | null = null;
  private overriddenList: number | null = null;

  /** \fN: the font, and the decoder of its code page. */
  setFont(state: GroupState, font: number): void {
    state.font = font;
    const codePage = this.fontCodePages.get(font) ?? this.documentCodePage;
    // Most paragraphs name the same font again: skip the lookup then.
    if (codePage !== this.lastCodePage) {
      this.lastCodePage = codePage;
      this.lastDecoder = decoderFor(codePage);
    }
    state.decoder = this.lastDecoder;
  }

  /** What the paragraph that ends now is: heading, title, quote, list item or plain paragraph. */
  paragraphEnd(state: GroupState): ParagraphEnd {
    let style = this.styles.paragraph(state.style);
    if (style.role !== 'title' && state.outlineLevel >= 0 && state.outlineLevel <= 8)
      style = outlineStyle(state.outlineLevel, style.format);
    let list: 'ul' | 'ol' | null = null;
    // Outline numbering puts headings in a list too (\lsN): a heading stays a heading.
    if (style.role === 'p' || style.role === 'quote') {
      list = state.list > 0 ? this.lists.kind(state.list, state.listLevel) : state.numbering;
    }
    const shape: ParagraphShape = {
      role: list === null ? style.role : 'p',
      level: style.level,
      list,
      listLevel: list === null ? 0 : Math.min(state.listLevel, 8),
    };
    return [shape, state.inTable, style.format];
  }

  /** A word of {\fonttbl …}: \fN starts a font, \fcharsetN and \cpgN give its code page. */
  fontWord(word: string, param: number | null): void {
    if (word === 'f') this.fontBeingRead = param ?? 0;
    const font = this.fontBeingRead;
    if (word === 'cpg' && param !== null) {
      this.fontCodePages.set(font, param);
      this.fontsWithCodePage.add(font);
    } else if (word === 'fcharset' && !this.fontsWithCodePage.has(font)) {
      const codePage = charsetCodePage(param ?? 0);
      if (codePage !== null) this.fontCodePages.set(font, codePage);
    }
  }

  /** A word of one stylesheet entry; false when the entry is of a kind not needed (table styles). */
  styleWord(entry: StyleEntry, word: string, param: number | null): boolean {
    const change = formatChange(word, param);
    if (change !== null) {
      entry.formatSet = (entry.formatSet & ~change.clear) | change.set;
      entry.formatClear = (entry.formatClear & ~change.set) | change.clear;
    } else if (word === 's' || word === 'cs') {
      entry.character = word === 'cs';
      entry.number = param ?? 0;
    } else if (word === 'ds' || word === 'ts' || word === 'tsrowd') {
      return false;
    } else if (word === 'sbasedon') {
      entry.basedOn = param;
    } else if (word === 'outlinelevel') {
      entry.outlineLevel = param;
    }
    return true;
  }

  /** A word of {\*\listtable …}: the number format of each level of each list. */
  listWord(word: string, param: number | null): void {
    if (word === 'list') {
      this.listBeingRead = [];
    } else if (word === 'listlevel') {
      this.listBeingRead?.push(0);
    } else if ((word === 'levelnfc' || word === 'levelnfcn') && this.listBeingRead !== null) {
      const levels = this.listBeingRead;
      if (levels.length > 0) levels[levels.length - 1] = param ?? 0;
    } else if (word === 'listid' && this.listBeingRead !== null && param !== null) {
      this.lists.formats.set(param, this.listBeingRead);
    }
  }

  /** A word of {\listoverridetable …}: which list each \lsN uses. */
  listOverrideWord(word: string, param: number | null): void {
    if (word === 'listoverride') this.overriddenList = null;
    else if (word === 'listid') this.overriddenList = param;
    else if (word === 'ls' && param !== null && this.overriddenList !== null)
      this.lists.overrides.set(param, this.overriddenList);
  }
}
