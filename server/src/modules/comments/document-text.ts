import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';
import {
  blockAt,
  buildModel,
  HAST_TREE,
  pathAt,
  positionOfPath,
  type DocumentModel,
  type HastLike,
} from '@margins/common';
import { defineCache } from '../../lib/cache/cache.ts';
import { parseStrictHtml } from '../../conversion/normalise/strict-parser.ts';

/**
 * The text of one draft as the reader box holds it: `text` is the `textContent` of an element
 * whose innerHTML is the stored manuscript HTML (the "\n" between blocks included), so a text
 * position the browser computes is a position here. The walk, the positions and the matching
 * are common/src/anchoring (the browser uses the same). Built once per draft and cached.
 */
export type DocumentText = DocumentModel;

/** Parses stored manuscript HTML (our normaliser's output) into its document text. */
export function documentText(html: string): DocumentText {
  const root = parseStrictHtml(html) ?? (fromParse5(parseFragment(html)) as Root);
  return buildModel(root as HastLike, HAST_TREE);
}

const documentTexts = defineCache<DocumentText>({
  name: 'document_texts',
  dependsOn: { immutable: 'keyed by a draft’s id: a stored draft never changes' },
  limit: { entries: 8 },
});

/** documentText() of a stored draft, cached by version id (drafts never change). */
export function cachedDocumentText(versionId: number, html: () => string): DocumentText {
  const cache = documentTexts.shared();
  const key = String(versionId);
  const hit = cache.peek(key);
  if (hit) return hit;
  const epoch = cache.mark();
  const built = documentText(html());
  cache.set(epoch, key, built);
  return built;
}

/** Whether a draft's text is cached (so the caller can skip loading its HTML). */
export const isCached = (versionId: number): boolean =>
  documentTexts.shared().has(String(versionId));

/** The block that holds position `at`; the text node and offset of a position; and back. */
export { blockAt, pathAt as pointAt, positionOfPath as positionOf };
