// The document model the RTF reader fills: paragraphs of formatted inline content, and tables.
// One Flow collects the body, one more each footnote.
import type { ParagraphRole } from './rtf-styles.ts';

/** Inline content; `format` holds the ITALIC/BOLD/… bits of rtf-styles.ts. */
export type Inline =
  | { kind: 'text'; text: string; format: number; link: string | null }
  | { kind: 'break'; format: number; link: string | null }
  | { kind: 'image'; src: string; alt: string; format: number; link: string | null }
  | { kind: 'note'; number: number; format: number; link: string | null };

/** What a paragraph is: its role, heading level, and list membership. */
export interface ParagraphShape {
  role: ParagraphRole;
  level: number;
  list: 'ul' | 'ol' | null;
  listLevel: number;
}

export interface ParagraphBlock extends ParagraphShape {
  kind: 'paragraph';
  inlines: Inline[];
}

export interface TableRow {
  header: boolean;
  cells: ParagraphBlock[][];
}

export interface TableBlock {
  kind: 'table';
  rows: TableRow[];
}

export type Block = ParagraphBlock | TableBlock;

/** Collects the inline content of the current paragraph and the finished blocks of one flow. */
export class Flow {
  readonly blocks: Block[] = [];
  /** The row being read is a header row (\trhdr). */
  rowHeader = false;
  private inlines: Inline[] = [];
  private pendingText: string[] = [];
  private pendingFormat = 0;
  private pendingLink: string | null = null;
  private table: TableBlock | null = null;
  private row: ParagraphBlock[][] = [];
  private cell: ParagraphBlock[] = [];

  addText(value: string, format: number, link: string | null): void {
    if (format !== this.pendingFormat || link !== this.pendingLink) this.flushText();
    this.pendingText.push(value);
    this.pendingFormat = format;
    this.pendingLink = link;
  }

  addInline(inline: Inline): void {
    this.flushText();
    this.inlines.push(inline);
  }

  /** Whether the current paragraph has any content yet. */
  get hasContent(): boolean {
    return this.pendingText.length > 0 || this.inlines.length > 0;
  }

  /**
   * Ends the current paragraph (\par, or \cell inside a table). Formatting its style already gives
   * (`styleFormat`: bold in a heading, italics in a quote style) is the style's look, not emphasis.
   */
  endParagraph(shape: ParagraphShape, inTable: boolean, styleFormat: number): void {
    this.flushText();
    const inlines = this.inlines;
    this.inlines = [];
    if (!inTable) this.closeTable();
    if (!inlines.some(isVisible)) return;
    if (styleFormat !== 0) for (const inline of inlines) inline.format &= ~styleFormat;
    const block: ParagraphBlock = { kind: 'paragraph', ...shape, inlines };
    if (inTable) this.cell.push(block);
    else this.blocks.push(block);
  }

  /** \cell: the paragraph and the cell end. */
  endCell(shape: ParagraphShape, styleFormat: number): void {
    this.endParagraph(shape, true, styleFormat);
    this.row.push(this.cell);
    this.cell = [];
  }

  /** \row: the row ends. */
  endRow(): void {
    if (this.cell.length > 0) {
      this.row.push(this.cell);
      this.cell = [];
    }
    if (this.row.length > 0) {
      this.table ??= { kind: 'table', rows: [] };
      this.table.rows.push({ header: this.rowHeader, cells: this.row });
    }
    this.row = [];
    this.rowHeader = false;
  }

  /** The end of the flow: what is still open is closed. */
  finish(shape: ParagraphShape, inTable: boolean, styleFormat: number): Block[] {
    if (this.hasContent) this.endParagraph(shape, inTable, styleFormat);
    this.closeTable();
    return this.blocks;
  }

  private closeTable(): void {
    if (this.cell.length > 0 || this.row.length > 0) this.endRow();
    if (this.table === null) return;
    this.blocks.push(this.table);
    this.table = null;
  }

  private flushText(): void {
    if (this.pendingText.length === 0) return;
    const text = this.pendingText.length === 1 ? this.pendingText[0] : this.pendingText.join('');
    this.inlines.push({
      kind: 'text',
      text: text ?? '',
      format: this.pendingFormat,
      link: this.pendingLink,
    });
    this.pendingText = [];
  }
}

function isVisible(inline: Inline): boolean {
  if (inline.kind === 'text') return /\S/.test(inline.text);
  return inline.kind !== 'break';
}
