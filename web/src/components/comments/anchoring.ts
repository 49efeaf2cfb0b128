import {
  bestExactOccurrence,
  bestFuzzyMatch,
  blockAt,
  buildModel,
  DOM_TREE,
  pathAt,
  positionOfPath,
  QUOTE_CONTEXT_LENGTH,
  type DocumentModel,
  type DomLike,
  type Highlight,
} from '@margins/common';

// Robust anchors (STYLE.md, after Hypothesis). A highlight is stored three ways: the SPEC
// range (child-index paths from the reader box + offsets in those text nodes), its position
// in the document text (the reader box's textContent), and its quote with 32 characters of
// context. Placing one falls back range → position → quote; what cannot be placed is an
// orphan, listed with its quote and never dropped.
//
// Paths always refer to the PRISTINE reader box (the HTML as the server sent it). Drawn
// highlights split text nodes and add <mark>s, so paths are computed from a model taken once
// from the pristine box, and the live DOM is only ever addressed by text position.

/** The pristine box as text, and a text position from a path in it (common core). */
export type { DocumentModel };
export { positionOfPath };

const TEXT_NODE = 3;

/**
 * Reads the pristine reader box (before any highlight is drawn) into its document model: the
 * same walk the server does over the stored HTML (common/src/anchoring).
 */
export function buildDocumentModel(box: Node): DocumentModel {
  return buildModel(box as unknown as DomLike, DOM_TREE);
}

// ---- The live box: text nodes as they are now (split by <mark>s) ---------------------------

/** The live text nodes of the box in order, with where each starts in the document text. */
export class LiveText {
  readonly nodes: Text[] = [];
  readonly starts: number[] = [];
  readonly length: number;
  private indexOf: Map<Text, number> | null = null;

  constructor(readonly box: HTMLElement) {
    const walker = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    let length = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      this.nodes.push(text);
      this.starts.push(length);
      length += text.data.length;
    }
    this.length = length;
  }

  /** The document position of a DOM boundary point inside the box, or null outside it. */
  positionOf(container: Node, offset: number): number | null {
    if (container !== this.box && !this.box.contains(container)) return null;
    if (!this.indexOf) this.indexOf = new Map(this.nodes.map((node, index) => [node, index]));
    if (container.nodeType === TEXT_NODE) {
      const index = this.indexOf.get(container as Text);
      if (index === undefined) return null;
      return this.starts[index]! + Math.min(offset, (container as Text).data.length);
    }
    // An element boundary: the first text node at or after the point, else the end.
    const walker = this.box.ownerDocument.createTreeWalker(this.box, NodeFilter.SHOW_TEXT);
    const child = container.childNodes[offset];
    let next: Node | null;
    if (child) {
      if (child.nodeType === TEXT_NODE) {
        next = child;
      } else {
        walker.currentNode = child;
        next = walker.nextNode();
      }
    } else {
      let last: Node = container;
      while (last.lastChild) last = last.lastChild;
      walker.currentNode = last;
      next = walker.nextNode();
    }
    if (!next) return this.length;
    const index = this.indexOf.get(next as Text);
    return index === undefined ? this.length : this.starts[index]!;
  }

  /** The index of the text node holding position `at` (as a start, or as an end). */
  nodeIndexAt(at: number, asEnd = false): number {
    let low = 0;
    let high = this.nodes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const end = this.starts[middle]! + this.nodes[middle]!.data.length;
      if (asEnd ? end >= at : end > at) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** A DOM Range over [start, end) of the document text, or null when out of bounds. */
  rangeOf(start: number, end: number): Range | null {
    if (end <= start || start < 0 || end > this.length) return null;
    const first = this.nodeIndexAt(start);
    const last = this.nodeIndexAt(end, true);
    const startNode = this.nodes[first];
    const endNode = this.nodes[last];
    if (!startNode || !endNode) return null;
    const range = this.box.ownerDocument.createRange();
    range.setStart(startNode, start - this.starts[first]!);
    range.setEnd(endNode, end - this.starts[last]!);
    return range;
  }
}

// ---- A new selection → a highlight's anchors ----------------------------------------------

/** Everything a new highlight is described by (SPEC range + robust anchors). */
export interface SelectionAnchor {
  startPath: number[];
  endPath: number[];
  startOffset: number;
  endOffset: number;
  /** The selected passage exactly as the document text holds it. */
  selectedText: string;
  /** Position in the document text, [start, end). */
  start: number;
  end: number;
  /** The top-level block the selection starts in. */
  block_id: string | null;
  quote: { exact: string; prefix: string; suffix: string };
}

/** The anchors of [start, end) in the document (whitespace at either edge trimmed off). */
export function anchorOfSpan(
  model: DocumentModel,
  rawStart: number,
  rawEnd: number,
): SelectionAnchor | null {
  const { text } = model;
  let start = Math.max(0, Math.min(rawStart, rawEnd));
  let end = Math.min(text.length, Math.max(rawStart, rawEnd));
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (end <= start) return null;
  const startPoint = pathAt(model, start);
  const endPoint = pathAt(model, end, true);
  if (!startPoint || !endPoint) return null;
  const exact = text.slice(start, end);
  return {
    startPath: startPoint.path,
    endPath: endPoint.path,
    startOffset: startPoint.offset,
    endOffset: endPoint.offset,
    selectedText: exact,
    start,
    end,
    block_id: blockAt(model, start)?.id ?? null,
    quote: {
      exact,
      prefix: text.slice(Math.max(0, start - QUOTE_CONTEXT_LENGTH), start),
      suffix: text.slice(end, end + QUOTE_CONTEXT_LENGTH),
    },
  };
}

/**
 * The anchors of a browser selection, or null when it is collapsed or leaves the reader box
 * (SPEC §5: the selection for a comment must lie inside the reader box).
 */
export function anchorOfRange(
  model: DocumentModel,
  live: LiveText,
  range: Pick<Range, 'startContainer' | 'startOffset' | 'endContainer' | 'endOffset'>,
): SelectionAnchor | null {
  const start = live.positionOf(range.startContainer, range.startOffset);
  const end = live.positionOf(range.endContainer, range.endOffset);
  if (start === null || end === null || end <= start) return null;
  return anchorOfSpan(model, start, end);
}

// ---- A stored highlight → where it is now ---------------------------------------------------

export type PlacementMethod = 'range' | 'position' | 'quote';
export interface Placement {
  start: number;
  end: number;
  method: PlacementMethod;
}

/**
 * The quote searched for (common core, as the server re-anchors): the exact occurrence whose
 * context and nearness to home fit best, else a close enough approximate match.
 */
function searchQuote(
  model: DocumentModel,
  quote: Highlight['quote'],
  home: number,
): Placement | null {
  const anchor = {
    quoteExact: quote.exact,
    quotePrefix: quote.prefix,
    quoteSuffix: quote.suffix,
    textStart: home,
  };
  const found = bestExactOccurrence(model.text, anchor) ?? bestFuzzyMatch(model.text, anchor);
  return found ? { start: found.start, end: found.end, method: 'quote' } : null;
}

/** What placing a highlight needs. */
export type AnchorFields = Pick<
  Highlight,
  'startPath' | 'endPath' | 'startOffset' | 'endOffset' | 'start' | 'end' | 'quote' | 'private'
> & { selectedText?: string; orphaned?: boolean };

/**
 * Where a stored highlight is in this document: its range when the paths still hold its
 * quote, else its text position, else the quote searched for (context decides between
 * repeats). A withheld quote (private comments) comes without its place, which would give it
 * back from the text: it is not drawn. Null: not placed (an orphan, or withheld).
 */
export function placeHighlight(model: DocumentModel, highlight: AnchorFields): Placement | null {
  if (highlight.orphaned || isWithheldPlace(highlight)) return null;
  const { text } = model;
  const exact = highlight.quote.exact || highlight.selectedText || '';
  const withheld = exact === '';
  const holds = (start: number | null, end: number | null): boolean =>
    start !== null &&
    end !== null &&
    end > start &&
    end <= text.length &&
    (withheld || text.slice(start, end) === exact);

  const { start, end, startOffset, endOffset } = highlight;
  const fromPath =
    startOffset === null ? null : positionOfPath(model, highlight.startPath, startOffset);
  const toPath = endOffset === null ? null : positionOfPath(model, highlight.endPath, endOffset);
  if (holds(fromPath, toPath)) return { start: fromPath!, end: toPath!, method: 'range' };
  if (holds(start, end)) return { start: start!, end: end!, method: 'position' };
  if (withheld) return null;
  return searchQuote(model, { ...highlight.quote, exact }, start ?? 0);
}

/**
 * A private comment's highlight as others get it: neither its quote nor any offset that would
 * locate it (the server leaves them out). It has a card, but no place in the text.
 */
export function isWithheldPlace(
  highlight: Pick<AnchorFields, 'private' | 'start' | 'end' | 'startOffset' | 'endOffset'>,
): boolean {
  return (
    highlight.private &&
    (highlight.start === null || highlight.end === null) &&
    (highlight.startOffset === null || highlight.endOffset === null)
  );
}
