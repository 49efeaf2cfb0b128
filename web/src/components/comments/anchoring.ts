import { QUOTE_CONTEXT_LENGTH, type Highlight } from '@margins/common';

// Robust anchors (STYLE.md, after Hypothesis). A highlight is stored three ways: the SPEC
// range (child-index paths from the reader box + offsets in those text nodes), its position
// in the document text (the reader box's textContent), and its quote with 32 characters of
// context. Placing one falls back range → position → quote; what cannot be placed is an
// orphan, listed with its quote and never dropped.
//
// Paths always refer to the PRISTINE reader box (the HTML as the server sent it). Drawn
// highlights split text nodes and add <mark>s, so paths are computed from a model taken once
// from the pristine box, and the live DOM is only ever addressed by text position.

/** A text node of the pristine box: its span in the document text and its child-index path. */
export interface PristineTextNode {
  start: number;
  end: number;
  path: number[];
}

/** A top-level block with an id and its span in the document text. */
export interface BlockSpan {
  id: string;
  start: number;
  end: number;
}

/** The pristine reader box as text: what paths, positions and quotes are computed against. */
export interface DocumentModel {
  text: string;
  nodes: PristineTextNode[];
  blocks: BlockSpan[];
  /** path key ("0/3/1") → index in `nodes`, built on first use. */
  pathIndex?: Map<string, number>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/**
 * Reads the pristine reader box (before any highlight is drawn) into its document model:
 * the same walk the server does over the stored HTML (server/src/modules/comments/document-text).
 */
export function buildDocumentModel(box: Node): DocumentModel {
  const parts: string[] = [];
  const nodes: PristineTextNode[] = [];
  const blocks: BlockSpan[] = [];
  let length = 0;
  const walk = (parent: Node, path: number[]) => {
    const children = parent.childNodes;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (child.nodeType === TEXT_NODE) {
        const value = (child as Text).data;
        nodes.push({ start: length, end: length + value.length, path: [...path, index] });
        parts.push(value);
        length += value.length;
      } else if (child.nodeType === ELEMENT_NODE) {
        const start = length;
        walk(child, [...path, index]);
        const id = (child as Element).id;
        if (path.length === 0 && id) blocks.push({ id, start, end: length });
      }
    }
  };
  walk(box, []);
  return { text: parts.join(''), nodes, blocks };
}

const pathKey = (path: readonly number[]) => path.join('/');

/** The document position of a pristine path + offset (a range boundary), or null. */
export function positionOfPath(
  model: DocumentModel,
  path: readonly number[],
  offset: number,
): number | null {
  if (!model.pathIndex) {
    model.pathIndex = new Map(model.nodes.map((node, index) => [pathKey(node.path), index]));
  }
  const index = model.pathIndex.get(pathKey(path));
  if (index === undefined) return null;
  const node = model.nodes[index]!;
  if (offset < 0 || offset > node.end - node.start) return null;
  return node.start + offset;
}

/**
 * The pristine path + offset of a document position: a range start takes the node the next
 * character is in, a range end (`asEnd`) the node the previous character is in (as the server).
 */
export function pathAt(
  model: DocumentModel,
  at: number,
  asEnd = false,
): { path: number[]; offset: number } | null {
  const { nodes } = model;
  let low = 0;
  let high = nodes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const end = nodes[middle]!.end;
    if (asEnd ? end >= at : end > at) high = middle;
    else low = middle + 1;
  }
  const node = nodes[low];
  if (!node || (asEnd && at === 0)) return null;
  return { path: [...node.path], offset: at - node.start };
}

/** The top-level block that holds position `at`, or null. */
export function blockAt(model: DocumentModel, at: number): BlockSpan | null {
  let low = 0;
  let high = model.blocks.length - 1;
  let found: BlockSpan | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = model.blocks[middle]!;
    if (block.start <= at) {
      found = block;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found && at < found.end ? found : null;
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

/** Exact occurrences of a quote looked at, at most. */
const MAX_OCCURRENCES = 1_000;

/** Characters of `a` and `b` that agree, counted from their ends (prefix) or starts (suffix). */
function agreeing(a: string, b: string, fromEnd: boolean): number {
  const length = Math.min(a.length, b.length);
  let count = 0;
  while (count < length) {
    const left = fromEnd ? a[a.length - 1 - count] : a[count];
    const right = fromEnd ? b[b.length - 1 - count] : b[count];
    if (left !== right) break;
    count++;
  }
  return count;
}

/** The best exact occurrence of the quote: its context first, then nearness to home. */
function searchQuote(
  model: DocumentModel,
  quote: Highlight['quote'],
  home: number,
): Placement | null {
  const { text } = model;
  const exact = quote.exact;
  let best: { start: number; score: number } | null = null;
  let count = 0;
  for (let at = text.indexOf(exact); at !== -1 && count < MAX_OCCURRENCES; count++) {
    const before = text.slice(Math.max(0, at - quote.prefix.length), at);
    const after = text.slice(at + exact.length, at + exact.length + quote.suffix.length);
    const context = agreeing(quote.prefix, before, true) + agreeing(quote.suffix, after, false);
    const nearness = 1 - Math.abs(at - home) / Math.max(1, text.length);
    const score = context * 10 + nearness;
    if (!best || score > best.score) best = { start: at, score };
    at = text.indexOf(exact, at + 1);
  }
  return best ? { start: best.start, end: best.start + exact.length, method: 'quote' } : null;
}

/** What placing a highlight needs. */
export type AnchorFields = Pick<
  Highlight,
  'startPath' | 'endPath' | 'startOffset' | 'endOffset' | 'start' | 'end' | 'quote' | 'private'
> & { selectedText?: string; orphaned?: boolean };

/**
 * Where a stored highlight is in this document: its range when the paths still hold its
 * quote, else its text position, else the quote searched for (context decides between
 * repeats). A withheld quote (private comments) cannot be checked: the server placed it in
 * this draft, so its range or position is trusted. Null: an orphan.
 */
export function placeHighlight(model: DocumentModel, highlight: AnchorFields): Placement | null {
  if (highlight.orphaned) return null;
  const { text } = model;
  const exact = highlight.quote.exact || highlight.selectedText || '';
  const withheld = exact === '';
  const holds = (start: number | null, end: number | null): boolean =>
    start !== null &&
    end !== null &&
    end > start &&
    end <= text.length &&
    (withheld || text.slice(start, end) === exact);

  const fromPath = positionOfPath(model, highlight.startPath, highlight.startOffset);
  const toPath = positionOfPath(model, highlight.endPath, highlight.endOffset);
  if (holds(fromPath, toPath)) return { start: fromPath!, end: toPath!, method: 'range' };
  if (holds(highlight.start, highlight.end)) {
    return { start: highlight.start, end: highlight.end, method: 'position' };
  }
  if (withheld) return null;
  return searchQuote(model, { ...highlight.quote, exact }, highlight.start);
}
