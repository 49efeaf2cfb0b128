// The inline content of a paragraph, gathered as pieces each with its formatting bits, then
// wrapped in as few em/strong/sup/sub elements as the formatting allows: ODF styles switch
// italics and bold on and off per span, HTML nests them.
import type { ElementContent } from 'hast';
import { element, text } from './normalise/hast.ts';
import { BOLD, ITALIC, SUBSCRIPT, SUPERSCRIPT } from './odt-styles.ts';

interface Piece {
  node: ElementContent;
  format: number;
  /** Spaces, line breaks and images take the formatting around them rather than split it. */
  neutral: boolean;
}

const WRAPPERS: ReadonlyArray<readonly [number, string]> = [
  [ITALIC, 'em'],
  [BOLD, 'strong'],
  [SUPERSCRIPT, 'sup'],
  [SUBSCRIPT, 'sub'],
];

/** Collects the inline content of one paragraph (or link) in order. */
export class InlineRuns {
  private readonly pieces: Piece[] = [];

  text(value: string, format: number): void {
    if (value === '') return;
    const last = this.pieces[this.pieces.length - 1];
    if (last !== undefined && last.node.type === 'text' && last.format === format) {
      last.node.value += value;
      last.neutral &&= isBlank(value);
      return;
    }
    this.pieces.push({ node: text(value), format, neutral: isBlank(value) });
  }

  /** A line break, an image or another piece that formatting does not change. */
  neutral(node: ElementContent): void {
    this.pieces.push({ node, format: 0, neutral: true });
  }

  /** A footnote reference, or another element shown in the current formatting. */
  add(node: ElementContent, format: number): void {
    this.pieces.push({ node, format, neutral: false });
  }

  /** A link around already collected runs; formatting shared by all of its text goes outside. */
  link(href: string, inner: InlineRuns): void {
    if (inner.pieces.length === 0) return;
    let shared = -1;
    for (const piece of inner.pieces) if (!piece.neutral) shared &= piece.format;
    if (shared === -1) shared = 0;
    for (const piece of inner.pieces) piece.format &= ~shared;
    this.add(element('a', { href }, inner.finish()), shared);
  }

  /** The content, without the link: for links whose target is dropped. */
  moveInto(target: InlineRuns): void {
    target.pieces.push(...this.pieces);
    this.pieces.length = 0;
  }

  isEmpty(): boolean {
    return this.pieces.length === 0;
  }

  /** The collected content, wrapped in formatting elements. */
  finish(): ElementContent[] {
    resolveNeutralPieces(this.pieces);
    return wrap(this.pieces, 0, this.pieces.length, 0);
  }
}

function isBlank(value: string): boolean {
  return !/\S/.test(value);
}

// A neutral piece keeps only the formatting that the pieces on both sides of it share.
function resolveNeutralPieces(pieces: Piece[]): void {
  let before = 0;
  const previous: number[] = [];
  for (const piece of pieces) {
    previous.push(before);
    if (!piece.neutral) before = piece.format;
  }
  let after = 0;
  for (let i = pieces.length - 1; i >= 0; i -= 1) {
    const piece = pieces[i] as Piece;
    if (piece.neutral) piece.format = (previous[i] as number) & after;
    else after = piece.format;
  }
}

function wrap(pieces: Piece[], from: number, to: number, depth: number): ElementContent[] {
  const wrapper = WRAPPERS[depth];
  if (wrapper === undefined) return pieces.slice(from, to).map((piece) => piece.node);
  const [bit, tagName] = wrapper;
  const result: ElementContent[] = [];
  let start = from;
  while (start < to) {
    const on = (pieces[start] as Piece).format & bit;
    let end = start + 1;
    while (end < to && ((pieces[end] as Piece).format & bit) === on) end += 1;
    const children = wrap(pieces, start, end, depth + 1);
    if (on) result.push(element(tagName, {}, children));
    else result.push(...children);
    start = end;
  }
  return result;
}
