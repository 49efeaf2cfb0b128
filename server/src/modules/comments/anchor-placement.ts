// Placing one highlight in a draft: its canonical anchor, a stored anchor, a new selection.
import { QUOTE_CONTEXT_LENGTH, type HighlightInput } from '@margins/common';
import {
  blockById,
  limitedBudget,
  MAX_OCCURRENCES,
  MIN_FUZZY_LENGTH,
  bestExactOccurrence,
  bestFuzzyMatch,
  unlimitedBudget,
  type FuzzyBudget,
} from './anchor-matching.ts';
import { blockAt, pointAt, positionOf, type DocumentText } from './document-text.ts';

/** What is stored of a highlight's place in one draft. */
export interface AnchorFields {
  blockId: string | null;
  blockOffset: number | null;
  textStart: number;
  textEnd: number;
  quoteExact: string;
  quotePrefix: string;
  quoteSuffix: string;
  startPath: number[];
  endPath: number[];
  startOffset: number;
  endOffset: number;
}

/** The part of a stored anchor that placing it needs. */
export type StoredAnchor = Pick<
  AnchorFields,
  'blockId' | 'blockOffset' | 'textStart' | 'textEnd' | 'quoteExact' | 'quotePrefix' | 'quoteSuffix'
>;

export type PlacementMethod = 'block' | 'position' | 'quote' | 'fuzzy';
export interface Placement {
  start: number;
  end: number;
  method: PlacementMethod;
}

/** How far around the old position the first fuzzy search looks, at least. */
const NEAR_WINDOW = 2_000;

/** The canonical anchor of [start, end) in a draft: block, quote, context and paths. */
export function anchorAt(doc: DocumentText, start: number, end: number): AnchorFields {
  const block = blockAt(doc, start);
  const startPoint = pointAt(doc, start) ?? { path: [], offset: 0 };
  const endPoint = pointAt(doc, end, true) ?? startPoint;
  return {
    blockId: block?.id ?? null,
    blockOffset: block ? start - block.start : null,
    textStart: start,
    textEnd: end,
    quoteExact: doc.text.slice(start, end),
    quotePrefix: doc.text.slice(Math.max(0, start - QUOTE_CONTEXT_LENGTH), start),
    quoteSuffix: doc.text.slice(end, end + QUOTE_CONTEXT_LENGTH),
    startPath: startPoint.path,
    startOffset: startPoint.offset,
    endPath: endPoint.path,
    endOffset: endPoint.offset,
  };
}

/** Places a stored anchor in a draft: block → position → quote (exact, then fuzzy), or null. */
export function placeAnchor(
  doc: DocumentText,
  stored: StoredAnchor,
  options: {
    /** Limits whole-text fuzzy searches (a re-anchoring run shares one). */
    budget?: FuzzyBudget;
    /** Where the old position most likely is now (see positionMapper). */
    expectedStart?: number;
  } = {},
): Placement | null {
  const budget = options.budget ?? unlimitedBudget();
  const exact = stored.quoteExact;
  if (exact.length === 0) return null;
  const { text } = doc;
  if (stored.blockId !== null && stored.blockOffset !== null) {
    const block = blockById(doc).get(stored.blockId);
    const start = block ? block.start + stored.blockOffset : -1;
    if (block && start + exact.length <= block.end && text.startsWith(exact, start)) {
      return { start, end: start + exact.length, method: 'block' };
    }
  }
  if (text.startsWith(exact, stored.textStart)) {
    return { start: stored.textStart, end: stored.textStart + exact.length, method: 'position' };
  }
  // From here on "home" is where the passage should be now, when the caller knows better.
  const home = options.expectedStart ?? stored.textStart;
  const anchor = {
    ...stored,
    textStart: home,
    textEnd: home + (stored.textEnd - stored.textStart),
  };
  if (text.startsWith(exact, home)) {
    return { start: home, end: home + exact.length, method: 'position' };
  }
  const exactMatch = bestExactOccurrence(doc, anchor);
  if (exactMatch) return exactMatch;
  if (exact.length < MIN_FUZZY_LENGTH) return null;

  // Fuzzy: near the old position first (cheap), then anywhere while the budget lasts.
  const window = Math.max(NEAR_WINDOW, exact.length * 4);
  const from = Math.max(0, anchor.textStart - window);
  const near = bestFuzzyMatch(doc, anchor, from, Math.min(text.length, anchor.textEnd + window));
  if (near) return near;
  if (!budget.take()) return null;
  return bestFuzzyMatch(doc, anchor, 0, text.length);
}

/**
 * Where a new selection lies in a draft: the given text position when it holds the selected
 * text, else the position of the given paths, else the selected text searched near the hint.
 * Null when the selection is not in the text (it must lie inside the reader box).
 */
export function locateSelection(
  doc: DocumentText,
  input: Pick<
    HighlightInput,
    'start' | 'end' | 'startPath' | 'startOffset' | 'endPath' | 'endOffset' | 'selectedText'
  >,
): { start: number; end: number } | null {
  const wanted = squash(input.selectedText);
  if (wanted === '') return null;
  const fits = (start: number | null, end: number | null) =>
    start !== null &&
    end !== null &&
    end > start &&
    end <= doc.text.length &&
    squash(doc.text.slice(start, end)) === wanted;
  if (input.start !== undefined && input.end !== undefined && fits(input.start, input.end)) {
    return { start: input.start, end: input.end };
  }
  const fromPaths = [
    positionOf(doc, input.startPath, input.startOffset),
    positionOf(doc, input.endPath, input.endOffset),
  ] as const;
  if (fits(...fromPaths)) return { start: fromPaths[0]!, end: fromPaths[1]! };
  const hint = input.start ?? fromPaths[0] ?? 0;
  // The selected text as it is, nearest the hint (a short word occurs many times).
  const exact = input.selectedText;
  let nearest = -1;
  let count = 0;
  for (let at = doc.text.indexOf(exact); at !== -1 && count < MAX_OCCURRENCES; count++) {
    if (nearest === -1 || Math.abs(at - hint) < Math.abs(nearest - hint)) nearest = at;
    at = doc.text.indexOf(exact, at + 1);
  }
  if (nearest !== -1) return { start: nearest, end: nearest + exact.length };
  // Else the browser's whitespace differs from the text's ("\n\n" between paragraphs …).
  const placed = placeAnchor(
    doc,
    {
      blockId: null,
      blockOffset: null,
      textStart: hint,
      textEnd: hint + exact.length,
      quoteExact: exact,
      quotePrefix: '',
      quoteSuffix: '',
    },
    { budget: limitedBudget(1) },
  );
  // A selection is placed only where its text really is (whitespace aside).
  return placed && squash(doc.text.slice(placed.start, placed.end)) === wanted ? placed : null;
}

/** Whitespace as the browser's selection and textContent may differ on it. */
const squash = (value: string) => value.replace(/\s+/g, ' ').trim();
