// Finding a stored quote in a document's text: exact occurrences and fuzzy matches, scored by
// the quote, its context (prefix and suffix) and nearness to where it was. The server places and
// re-anchors highlights with it, the browser finds moved highlights with it: one answer.
import search from 'approx-string-match';

/** A quote with its context and where it was (all the matching needs). */
export interface QuoteAnchor {
  quoteExact: string;
  quotePrefix: string;
  quoteSuffix: string;
  /** Its old position in the text (nearness decides between otherwise equal matches). */
  textStart: number;
}

/** Where a quote was found: exactly ("quote") or approximately ("fuzzy"). */
export interface QuoteMatch {
  start: number;
  end: number;
  method: 'quote' | 'fuzzy';
}

/** A fuzzy match must be this close to the quote (1 = identical)… */
const MIN_QUOTE_SIMILARITY = 0.75;
/** …or this close, with its context (prefix and suffix) almost intact. */
const MIN_QUOTE_SIMILARITY_IN_CONTEXT = 0.5;
const MIN_CONTEXT_SIMILARITY = 0.75;
/** Quotes shorter than this are only placed exactly (fuzzy would match anything). */
export const MIN_FUZZY_LENGTH = 8;
/** Exact occurrences of a quote looked at, at most. */
export const MAX_OCCURRENCES = 2_000;

/** The exact occurrence of the quote whose context and place fit best, or null. */
export function bestExactOccurrence(text: string, anchor: QuoteAnchor): QuoteMatch | null {
  const exact = anchor.quoteExact;
  if (!exact) return null;
  let best: { start: number; score: number } | null = null;
  let count = 0;
  for (let at = text.indexOf(exact); at !== -1 && count < MAX_OCCURRENCES; count++) {
    const score = scoreMatch(text, anchor, at, at + exact.length, 0);
    if (!best || score > best.score) best = { start: at, score };
    at = text.indexOf(exact, at + 1);
  }
  if (!best) return null;
  // A short quote found only far from home, with no context to confirm it, is not it.
  if (
    exact.length < MIN_FUZZY_LENGTH &&
    count > 1 &&
    contextSimilarity(text, anchor, best.start, best.start + exact.length) < MIN_CONTEXT_SIMILARITY
  ) {
    return null;
  }
  return { start: best.start, end: best.start + exact.length, method: 'quote' };
}

/** The best approximate match of the quote in text[from, to) that is close enough, or null. */
export function bestFuzzyMatch(
  text: string,
  anchor: QuoteAnchor,
  from = 0,
  to = text.length,
): QuoteMatch | null {
  const exact = anchor.quoteExact;
  if (exact.length < MIN_FUZZY_LENGTH) return null;
  const maxErrors = Math.min(256, Math.floor(exact.length / 2));
  const matches = search(text.slice(from, to), exact, maxErrors);
  let best: { start: number; end: number; score: number } | null = null;
  for (const match of matches.slice(0, MAX_OCCURRENCES)) {
    const start = from + match.start;
    const end = from + match.end;
    const quoteSimilarity = 1 - match.errors / exact.length;
    if (quoteSimilarity < MIN_QUOTE_SIMILARITY_IN_CONTEXT) continue;
    if (
      quoteSimilarity < MIN_QUOTE_SIMILARITY &&
      contextSimilarity(text, anchor, start, end) < MIN_CONTEXT_SIMILARITY
    ) {
      continue;
    }
    const score = scoreMatch(text, anchor, start, end, match.errors);
    if (!best || score > best.score) best = { start, end, score };
  }
  return best ? { start: best.start, end: best.end, method: 'fuzzy' } : null;
}

/** Higher is better: the quote counts most, then its context, then nearness to home. */
function scoreMatch(
  text: string,
  anchor: QuoteAnchor,
  start: number,
  end: number,
  errors: number,
): number {
  const quoteSimilarity = 1 - errors / anchor.quoteExact.length;
  const nearness = 1 - Math.abs(start - anchor.textStart) / Math.max(1, text.length);
  return 50 * quoteSimilarity + 40 * contextSimilarity(text, anchor, start, end) + 2 * nearness;
}

/** How well the text around [start, end) matches the stored prefix and suffix (0–1). */
function contextSimilarity(text: string, anchor: QuoteAnchor, start: number, end: number): number {
  const parts: number[] = [];
  if (anchor.quotePrefix.length > 0) {
    const before = text.slice(Math.max(0, start - anchor.quotePrefix.length), start);
    parts.push(similarity(anchor.quotePrefix, before));
  }
  if (anchor.quoteSuffix.length > 0) {
    parts.push(similarity(anchor.quoteSuffix, text.slice(end, end + anchor.quoteSuffix.length)));
  }
  if (parts.length === 0) return 0.5;
  return parts.reduce((sum, value) => sum + value, 0) / parts.length;
}

/** 1 − edit distance / length, for two short strings. */
function similarity(expected: string, actual: string): number {
  if (expected === actual) return 1;
  if (actual.length === 0) return 0;
  const [match] = search(actual, expected, expected.length);
  const errors = match ? match.errors : expected.length;
  return Math.max(0, 1 - errors / expected.length);
}
