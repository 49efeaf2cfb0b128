import search from 'approx-string-match';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { QUOTE_CONTEXT_LENGTH, type HighlightInput } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import {
  blockAt,
  cachedDocumentText,
  pointAt,
  positionOf,
  type DocumentText,
} from './document-text.ts';

// Robust anchors (STYLE.md, after Hypothesis): a highlight keeps its block, its position in the
// document text and its quote with context. Placing it in a draft falls back from the block to
// the position to the quote anywhere, exact before fuzzy; what cannot be placed is an orphan.

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

/** A fuzzy match must be this close to the quote (1 = identical)… */
const MIN_QUOTE_SIMILARITY = 0.75;
/** …or this close, with its context (prefix and suffix) almost intact. */
const MIN_QUOTE_SIMILARITY_IN_CONTEXT = 0.5;
const MIN_CONTEXT_SIMILARITY = 0.75;
/** Quotes shorter than this are only placed exactly (fuzzy would match anything). */
const MIN_FUZZY_LENGTH = 8;
/** How far around the old position the first fuzzy search looks, at least. */
const NEAR_WINDOW = 2_000;
/** Exact occurrences of a quote looked at, at most. */
const MAX_OCCURRENCES = 2_000;

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

// ---- Matching ----------------------------------------------------------------------------

const blockMaps = new WeakMap<DocumentText, Map<string, DocumentText['blocks'][number]>>();
function blockById(doc: DocumentText): Map<string, DocumentText['blocks'][number]> {
  let map = blockMaps.get(doc);
  if (!map) {
    map = new Map(doc.blocks.map((block) => [block.id, block]));
    blockMaps.set(doc, map);
  }
  return map;
}

/** Limits the expensive whole-text fuzzy searches of one re-anchoring run. */
export interface FuzzyBudget {
  take(): boolean;
}
const unlimitedBudget = (): FuzzyBudget => ({ take: () => true });
/** Allows `count` whole-text searches, or as many as fit in `ms` milliseconds. */
export function limitedBudget(count: number, ms = Infinity): FuzzyBudget {
  const deadline = Date.now() + ms;
  let left = count;
  return { take: () => left-- > 0 && Date.now() < deadline };
}

function bestExactOccurrence(doc: DocumentText, anchor: StoredAnchor): Placement | null {
  const { text } = doc;
  const exact = anchor.quoteExact;
  let best: { start: number; score: number } | null = null;
  let count = 0;
  for (let at = text.indexOf(exact); at !== -1 && count < MAX_OCCURRENCES; count++) {
    const score = scoreMatch(doc, anchor, at, at + exact.length, 0);
    if (!best || score > best.score) best = { start: at, score };
    at = text.indexOf(exact, at + 1);
  }
  if (!best) return null;
  // A short quote found only far from home, with no context to confirm it, is not it.
  if (
    exact.length < MIN_FUZZY_LENGTH &&
    count > 1 &&
    contextSimilarity(doc, anchor, best.start, best.start + exact.length) < MIN_CONTEXT_SIMILARITY
  ) {
    return null;
  }
  return { start: best.start, end: best.start + exact.length, method: 'quote' };
}

function bestFuzzyMatch(
  doc: DocumentText,
  anchor: StoredAnchor,
  from: number,
  to: number,
): Placement | null {
  const exact = anchor.quoteExact;
  const maxErrors = Math.min(256, Math.floor(exact.length / 2));
  const matches = search(doc.text.slice(from, to), exact, maxErrors);
  let best: { start: number; end: number; score: number } | null = null;
  for (const match of matches.slice(0, MAX_OCCURRENCES)) {
    const start = from + match.start;
    const end = from + match.end;
    const quoteSimilarity = 1 - match.errors / exact.length;
    if (quoteSimilarity < MIN_QUOTE_SIMILARITY_IN_CONTEXT) continue;
    if (
      quoteSimilarity < MIN_QUOTE_SIMILARITY &&
      contextSimilarity(doc, anchor, start, end) < MIN_CONTEXT_SIMILARITY
    ) {
      continue;
    }
    const score = scoreMatch(doc, anchor, start, end, match.errors);
    if (!best || score > best.score) best = { start, end, score };
  }
  return best ? { start: best.start, end: best.end, method: 'fuzzy' } : null;
}

/** Higher is better: the quote counts most, then its context, then nearness to home. */
function scoreMatch(
  doc: DocumentText,
  anchor: StoredAnchor,
  start: number,
  end: number,
  errors: number,
): number {
  const quoteSimilarity = 1 - errors / anchor.quoteExact.length;
  const nearness = 1 - Math.abs(start - anchor.textStart) / Math.max(1, doc.text.length);
  return 50 * quoteSimilarity + 40 * contextSimilarity(doc, anchor, start, end) + 2 * nearness;
}

/** How well the text around [start, end) matches the stored prefix and suffix (0–1). */
function contextSimilarity(
  doc: DocumentText,
  anchor: StoredAnchor,
  start: number,
  end: number,
): number {
  const parts: number[] = [];
  if (anchor.quotePrefix.length > 0) {
    const before = doc.text.slice(Math.max(0, start - anchor.quotePrefix.length), start);
    parts.push(similarity(anchor.quotePrefix, before));
  }
  if (anchor.quoteSuffix.length > 0) {
    parts.push(
      similarity(anchor.quoteSuffix, doc.text.slice(end, end + anchor.quoteSuffix.length)),
    );
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

// ---- Re-anchoring a manuscript ----------------------------------------------------------

/**
 * Maps a position in an old draft to where it most likely is in a new one, by the nearest
 * untouched block before it (same id in both): text added or removed earlier shifts it.
 */
export function positionMapper(oldDoc: DocumentText, newDoc: DocumentText): (at: number) => number {
  const newBlocks = blockById(newDoc);
  const pairs: Array<[number, number]> = [];
  for (const block of oldDoc.blocks) {
    const now = newBlocks.get(block.id);
    if (now) pairs.push([block.start, now.start]);
  }
  return (at) => {
    let low = 0;
    let high = pairs.length - 1;
    let found: [number, number] | null = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (pairs[middle]![0] <= at) {
        found = pairs[middle]!;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found ? found[1] + (at - found[0]) : at;
  };
}

export interface ReanchorSummary {
  /** Placed by block, position or exact quote. */
  kept: number;
  /** Placed by a fuzzy match (the passage was edited). */
  moved: number;
  orphaned: number;
}

/** Whole-text fuzzy searches one re-anchoring may spend (the rest become orphans). */
const REANCHOR_FUZZY_BUDGET = { count: 2_000, ms: 5_000 };

/**
 * Places every live highlight of a manuscript in its new current draft, inside the transaction
 * that makes the draft current. Highlights that cannot be placed are kept as orphans (their quote
 * stays; a later draft tries again).
 */
export async function reanchorHighlights(
  tx: Executor,
  manuscriptId: number,
  version: { id: number; html: string },
): Promise<ReanchorSummary> {
  const rows = await tx
    .select()
    .from(schema.highlights)
    .where(
      and(eq(schema.highlights.manuscriptId, manuscriptId), isNull(schema.highlights.deletedAt)),
    );
  const summary: ReanchorSummary = { kept: 0, moved: 0, orphaned: 0 };
  if (rows.length === 0) return summary;
  const doc = cachedDocumentText(version.id, () => version.html);
  const budget = limitedBudget(REANCHOR_FUZZY_BUDGET.count, REANCHOR_FUZZY_BUDGET.ms);
  const mappers = await oldDraftMappers(tx, rows, doc);
  const updates: Parameters<typeof writeAnchors>[1] = [];
  for (const [index, row] of rows.entries()) {
    // Let the event loop breathe (sockets, requests) on a long book with many highlights.
    if (index > 0 && index % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    const mapped = row.versionId === null ? undefined : mappers.get(row.versionId)?.(row.textStart);
    const placement = placeAnchor(doc, row, { budget, expectedStart: mapped });
    if (!placement) {
      summary.orphaned += 1;
      updates.push({ ...storedFields(row), id: row.id, version_id: row.versionId, orphaned: true });
      continue;
    }
    summary[placement.method === 'fuzzy' ? 'moved' : 'kept'] += 1;
    const anchor = anchorAt(doc, placement.start, placement.end);
    updates.push({ ...storedFields(anchor), id: row.id, version_id: version.id, orphaned: false });
  }
  for (let index = 0; index < updates.length; index += 500) {
    await writeAnchors(tx, updates.slice(index, index + 500));
  }
  return summary;
}

/** A position mapper from each draft the highlights were last placed in to the new one. */
async function oldDraftMappers(
  tx: Executor,
  rows: Array<{ versionId: number | null }>,
  doc: DocumentText,
): Promise<Map<number, (at: number) => number>> {
  const ids = [...new Set(rows.map((row) => row.versionId).filter((id) => id !== null))];
  if (ids.length === 0) return new Map();
  const drafts = await tx
    .select({ id: schema.manuscriptVersions.id, html: schema.manuscriptVersions.html })
    .from(schema.manuscriptVersions)
    .where(inArray(schema.manuscriptVersions.id, ids));
  return new Map(
    drafts.map((draft) => [
      draft.id,
      positionMapper(
        cachedDocumentText(draft.id, () => draft.html),
        doc,
      ),
    ]),
  );
}

function storedFields(anchor: AnchorFields) {
  return {
    start_path: anchor.startPath,
    end_path: anchor.endPath,
    start_offset: anchor.startOffset,
    end_offset: anchor.endOffset,
    block_id: anchor.blockId,
    block_offset: anchor.blockOffset,
    text_start: anchor.textStart,
    text_end: anchor.textEnd,
    quote_exact: anchor.quoteExact,
    quote_prefix: anchor.quotePrefix,
    quote_suffix: anchor.quoteSuffix,
  };
}

/** One UPDATE for many highlights (a JSON record set), so 2,000 highlights are 4 statements. */
async function writeAnchors(
  tx: Executor,
  rows: Array<
    ReturnType<typeof storedFields> & { id: string; version_id: number | null; orphaned: boolean }
  >,
): Promise<void> {
  await tx.execute(sql`
    update highlights as h set
      version_id = v.version_id, start_path = v.start_path, end_path = v.end_path,
      start_offset = v.start_offset, end_offset = v.end_offset, block_id = v.block_id,
      block_offset = v.block_offset, text_start = v.text_start, text_end = v.text_end,
      quote_exact = v.quote_exact, quote_prefix = v.quote_prefix, quote_suffix = v.quote_suffix,
      orphaned = v.orphaned, updated_at = now(), changed_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
      id text, version_id integer, start_path integer[], end_path integer[], start_offset integer,
      end_offset integer, block_id text, block_offset integer, text_start integer,
      text_end integer, quote_exact text, quote_prefix text, quote_suffix text, orphaned boolean)
    where h.id = v.id`);
}
