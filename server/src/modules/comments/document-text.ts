import type { Element, Root, RootContent } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';
import { parseStrictHtml } from '../../conversion/normalise/strict-parser.ts';

/**
 * The text of one draft as the reader box holds it: `text` is the `textContent` of an element
 * whose innerHTML is the stored manuscript HTML (the "\n" between blocks included), so a text
 * position the browser computes is a position here. Built once per draft and cached.
 */
export interface DocumentText {
  text: string;
  /** Top-level elements with an id, in order, with their span in `text`. */
  blocks: Array<{ id: string; start: number; end: number }>;
  /** Every text node in order: where it starts in `text`, and its child-index path. */
  nodes: Array<{ start: number; end: number; path: number[] }>;
}

/** Parses stored manuscript HTML (our normaliser's output) into its document text. */
export function documentText(html: string): DocumentText {
  const root = parseStrictHtml(html) ?? (fromParse5(parseFragment(html)) as Root);
  const parts: string[] = [];
  const blocks: DocumentText['blocks'] = [];
  const nodes: DocumentText['nodes'] = [];
  let length = 0;
  const walk = (children: RootContent[], path: number[]) => {
    children.forEach((child, index) => {
      if (child.type === 'text') {
        nodes.push({ start: length, end: length + child.value.length, path: [...path, index] });
        parts.push(child.value);
        length += child.value.length;
      } else if (child.type === 'element') {
        const start = length;
        walk((child as Element).children, [...path, index]);
        const id = child.properties?.id;
        if (path.length === 0 && typeof id === 'string') blocks.push({ id, start, end: length });
      }
    });
  };
  walk(root.children, []);
  return { text: parts.join(''), blocks, nodes };
}

const cache = new Map<number, DocumentText>();
const CACHE_SIZE = 8;

/** documentText() of a stored draft, cached by version id (drafts never change). */
export function cachedDocumentText(versionId: number, html: () => string): DocumentText {
  const hit = cache.get(versionId);
  if (hit) {
    cache.delete(versionId);
    cache.set(versionId, hit);
    return hit;
  }
  const built = documentText(html());
  cache.set(versionId, built);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return built;
}

/** Whether a draft's text is cached (so the caller can skip loading its HTML). */
export const isCached = (versionId: number): boolean => cache.has(versionId);

/** The block that holds position `at` (the last block starting at or before it). */
export function blockAt(doc: DocumentText, at: number): DocumentText['blocks'][number] | null {
  let low = 0;
  let high = doc.blocks.length - 1;
  let found: DocumentText['blocks'][number] | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = doc.blocks[middle]!;
    if (block.start <= at) {
      found = block;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found && at < found.end ? found : null;
}

/**
 * The text node and offset of a position: a range start takes the node the next character is
 * in; a range end (`asEnd`) the node the previous character is in.
 */
export function pointAt(
  doc: DocumentText,
  at: number,
  asEnd = false,
): { path: number[]; offset: number } | null {
  // Text nodes are contiguous: the first one ending after `at` (at or after, for an end) holds it.
  let low = 0;
  let high = doc.nodes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const end = doc.nodes[middle]!.end;
    if (asEnd ? end >= at : end > at) high = middle;
    else low = middle + 1;
  }
  const node = doc.nodes[low];
  if (!node || (asEnd && at === 0)) return null;
  return { path: node.path, offset: at - node.start };
}

/** The position of a child-index path + offset (a DOM range boundary), or null. */
export function positionOf(doc: DocumentText, path: number[], offset: number): number | null {
  const key = path.join('/');
  // Text nodes are in document order; a path names exactly one of them.
  const node = doc.nodes.find((candidate) => candidate.path.join('/') === key);
  if (!node || offset > node.end - node.start) return null;
  return node.start + offset;
}
