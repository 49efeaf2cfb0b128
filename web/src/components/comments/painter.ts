import { HIGHLIGHT_COLOURS } from '@margins/common';
import { LiveText } from './anchoring.ts';

/** The colour of the highlight at `index` in the SPEC §9 cycle (yellow, pink, … gray). */
export function colourAt(index: number): (typeof HIGHLIGHT_COLOURS)[number] {
  const length = HIGHLIGHT_COLOURS.length;
  return HIGHLIGHT_COLOURS[((index % length) + length) % length]!;
}

/** A highlight to draw: its id, its span in the document text and its colour index. */
export interface PaintedSpan {
  id: string;
  start: number;
  end: number;
  colour: number;
  /** Not saved yet (a draft): drawn lighter. */
  pending?: boolean;
  /** The comment thread is open: drawn stronger. */
  active?: boolean;
}

/** Elements whose text children are only the whitespace between their structural children. */
const STRUCTURAL = new Set([
  'TABLE',
  'THEAD',
  'TBODY',
  'TFOOT',
  'TR',
  'COLGROUP',
  'UL',
  'OL',
  'DL',
  'SECTION',
  'FIGURE',
  'PICTURE',
]);

const WHITESPACE = /^\s*$/;

interface Drawn {
  span: PaintedSpan;
  marks: HTMLElement[];
}

/**
 * Draws highlights into the reader box as `<mark class="hl hl-{colour}" data-hl="{id}">`
 * around text, across element boundaries, without touching the box's own structure (no mark
 * between blocks, table rows or list items). Work is batched: one walk of the text nodes per
 * sync, each touched text node replaced once by a fragment, no layout read while writing.
 */
export class HighlightPainter {
  private readonly drawn = new Map<string, Drawn>();

  constructor(readonly box: HTMLElement) {}

  /** Ids drawn now. */
  get ids(): string[] {
    return [...this.drawn.keys()];
  }

  /** The first mark of a highlight (where its thread is placed), if drawn. */
  firstMark(id: string): HTMLElement | undefined {
    return this.drawn.get(id)?.marks[0];
  }

  /** The marks of a highlight, if drawn. */
  marksOf(id: string): readonly HTMLElement[] {
    return this.drawn.get(id)?.marks ?? [];
  }

  /**
   * Makes the box show exactly these highlights: removes the ones gone or moved, draws the new
   * ones, and restyles the ones whose colour or state changed. Returns how many it drew.
   */
  sync(wanted: readonly PaintedSpan[]): number {
    const next = new Map(wanted.map((span) => [span.id, span]));
    const removed: Drawn[] = [];
    for (const [id, drawn] of this.drawn) {
      const span = next.get(id);
      if (!span || span.start !== drawn.span.start || span.end !== drawn.span.end) {
        removed.push(drawn);
        this.drawn.delete(id);
      } else if (
        span.colour !== drawn.span.colour ||
        !!span.pending !== !!drawn.span.pending ||
        !!span.active !== !!drawn.span.active
      ) {
        drawn.span = span;
        for (const mark of drawn.marks) styleMark(mark, span);
      }
    }
    this.unwrap(removed);
    const added = wanted.filter((span) => !this.drawn.has(span.id) && span.end > span.start);
    if (added.length > 0) this.wrap(added);
    return added.length;
  }

  /** Removes every mark: the box is back to the HTML the server sent. */
  clear(): void {
    this.unwrap([...this.drawn.values()]);
    this.drawn.clear();
  }

  private unwrap(removed: Drawn[]): void {
    if (removed.length === 0) return;
    const parents = new Set<Node>();
    for (const drawn of removed) {
      for (const mark of drawn.marks) {
        const parent = mark.parentNode;
        if (!parent) continue;
        while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
        parent.removeChild(mark);
        parents.add(parent);
      }
    }
    // Rejoin the text the marks had split (the server's HTML never has adjacent text nodes).
    for (const parent of parents) if (parent.isConnected) parent.normalize();
  }

  /** One sweep over the text nodes: each node touched by a span is split and wrapped once. */
  private wrap(spans: PaintedSpan[]): void {
    const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
    const records = new Map<string, Drawn>(
      sorted.map((span) => [span.id, { span, marks: [] as HTMLElement[] }]),
    );
    const live = new LiveText(this.box);
    const { nodes, starts } = live;
    const doc = this.box.ownerDocument;
    let active: PaintedSpan[] = [];
    let next = 0;
    let index = 0;
    while (index < nodes.length) {
      const node = nodes[index]!;
      const nodeStart = starts[index]!;
      const nodeEnd = nodeStart + node.data.length;
      while (next < sorted.length && sorted[next]!.start < nodeEnd) active.push(sorted[next++]!);
      if (active.length > 0) active = active.filter((span) => span.end > nodeStart);
      if (active.length === 0) {
        if (next >= sorted.length) break;
        // Jump to the first node that ends after the next span starts.
        index = Math.max(index + 1, live.nodeIndexAt(sorted[next]!.start));
        continue;
      }
      index++;
      if (node.data.length === 0 || !canWrap(node, this.box)) continue;

      const cuts = new Set<number>([nodeStart, nodeEnd]);
      for (const span of active) {
        if (span.start > nodeStart && span.start < nodeEnd) cuts.add(span.start);
        if (span.end > nodeStart && span.end < nodeEnd) cuts.add(span.end);
      }
      const points = [...cuts].sort((a, b) => a - b);
      const fragment = doc.createDocumentFragment();
      for (let cut = 0; cut < points.length - 1; cut++) {
        const from = points[cut]!;
        const to = points[cut + 1]!;
        const text = doc.createTextNode(node.data.slice(from - nodeStart, to - nodeStart));
        let piece: Node = text;
        // Innermost last: the span that starts latest (or ends first) sits inside the others.
        for (let layer = active.length - 1; layer >= 0; layer--) {
          const span = active[layer]!;
          if (span.start > from || span.end < to) continue;
          const mark = doc.createElement('mark');
          styleMark(mark, span);
          mark.dataset.hl = span.id;
          mark.appendChild(piece);
          records.get(span.id)!.marks.push(mark);
          piece = mark;
        }
        fragment.appendChild(piece);
      }
      node.parentNode!.replaceChild(fragment, node);
    }
    // A span has at most one mark per piece of text, made in document order.
    for (const [id, record] of records) this.drawn.set(id, record);
  }
}

function canWrap(node: Text, box: HTMLElement): boolean {
  const parent = node.parentElement;
  if (!parent || parent === box) return false;
  return !(STRUCTURAL.has(parent.tagName) && WHITESPACE.test(node.data));
}

function styleMark(mark: HTMLElement, span: PaintedSpan): void {
  let className = `hl hl-${colourAt(span.colour)}`;
  if (span.pending) className += ' hl-pending';
  if (span.active) className += ' hl-active';
  mark.className = className;
}
