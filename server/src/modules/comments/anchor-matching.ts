// Matching a stored quote in a draft's text: the scoring and search are the common anchoring
// core (common/src/anchoring, shared with the browser); here the server's budgets and lookups.
import {
  bestExactOccurrence as exactOccurrenceIn,
  bestFuzzyMatch as fuzzyMatchIn,
  MAX_OCCURRENCES,
  MIN_FUZZY_LENGTH,
} from '@margins/common';
import type { Placement, StoredAnchor } from './anchor-placement.ts';
import type { DocumentText } from './document-text.ts';

export { MAX_OCCURRENCES, MIN_FUZZY_LENGTH };

const blockMaps = new WeakMap<DocumentText, Map<string, DocumentText['blocks'][number]>>();
/** A draft's blocks by id (built once per parsed draft). */
export function blockById(doc: DocumentText): Map<string, DocumentText['blocks'][number]> {
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
/** No limit on whole-text searches (one placement on its own). */
export const unlimitedBudget = (): FuzzyBudget => ({ take: () => true });
/** Allows `count` whole-text searches, or as many as fit in `ms` milliseconds. */
export function limitedBudget(count: number, ms = Infinity): FuzzyBudget {
  const deadline = Date.now() + ms;
  let left = count;
  return { take: () => left-- > 0 && Date.now() < deadline };
}

/** The exact occurrence of the quote whose context and place fit best (common core), or null. */
export function bestExactOccurrence(doc: DocumentText, anchor: StoredAnchor): Placement | null {
  return exactOccurrenceIn(doc.text, anchor);
}

/** The best approximate match of the quote in text[from, to) (common core), or null. */
export function bestFuzzyMatch(
  doc: DocumentText,
  anchor: StoredAnchor,
  from: number,
  to: number,
): Placement | null {
  return fuzzyMatchIn(doc.text, anchor, from, to);
}
