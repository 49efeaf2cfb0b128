// The HTML that mammoth writes for a document, built as a tree straight away: our DOCX reader
// makes the same tree mammoth would make, so that the normaliser gives the same result with or
// without mammoth (docx-oracle.test.ts holds us to that).
//
// mammoth wraps every paragraph and run in a "path" of elements from its style map. An element of
// a path is fresh (always a new element) or not: a non-fresh element merges into an equal element
// just before it. That is how consecutive list items share one <ul>, consecutive quote paragraphs
// one <blockquote>, and neighbouring runs in italics one <em>. Empty elements are dropped first.
import type { ElementContent, Properties } from 'hast';
import { UnsupportedDocx } from './docx-package.ts';

/** One element of a path: what it is, and how it merges. */
export interface HtmlTag {
  readonly tagName: string;
  /** The tag names of earlier elements this one merges into ("ul|ol" in a style map). */
  readonly mergesInto: ReadonlySet<string>;
  readonly properties: Properties;
  /** The properties as one string, to compare two tags cheaply. */
  readonly key: string;
  readonly fresh: boolean;
}

export interface HtmlElement {
  readonly tag: HtmlTag;
  readonly children: HtmlNode[];
}

/** Text is a plain string. */
export type HtmlNode = HtmlElement | string;

/** A path element; `mergesInto` defaults to its own name ("ul|ol" is `tag('ul', …, ['ul', 'ol'])`). */
export function tag(
  tagName: string,
  properties: Properties = {},
  fresh = true,
  mergesInto: readonly string[] = [tagName],
): HtmlTag {
  return {
    tagName,
    mergesInto: new Set(mergesInto),
    properties,
    key: JSON.stringify(properties),
    fresh,
  };
}

/** A fresh element that stays even when empty (mammoth's "force write": tables, bookmarks). */
export function keptElement(elementTag: HtmlTag, children: HtmlNode[] = []): HtmlElement {
  return { tag: elementTag, children: collapse(children) };
}

/** A void element (image, line break). */
export function voidElement(elementTag: HtmlTag): HtmlElement {
  return { tag: elementTag, children: [] };
}

/**
 * Wraps nodes in a path, outermost element first. Nothing comes out when there is nothing to
 * wrap: mammoth drops empty elements before it merges them.
 */
export function wrap(path: readonly HtmlTag[], nodes: HtmlNode[]): HtmlNode[] {
  let children = collapse(nodes);
  for (let i = path.length - 1; i >= 0; i -= 1) {
    if (children.length === 0) return [];
    children = [{ tag: path[i] as HtmlTag, children }];
  }
  return children;
}

/** The nodes with each non-fresh element merged into an equal element just before it. */
export function collapse(nodes: readonly HtmlNode[]): HtmlNode[] {
  const result: HtmlNode[] = [];
  for (const node of nodes) appendNode(result, node);
  return result;
}

// Elements are never empty here: wrap() makes none, and the others are void or kept on purpose.
function appendNode(list: HtmlNode[], node: HtmlNode): void {
  if (typeof node === 'string') {
    if (node !== '') list.push(node);
    return;
  }
  const last = list[list.length - 1];
  if (
    !node.tag.fresh &&
    last !== undefined &&
    typeof last !== 'string' &&
    node.tag.mergesInto.has(last.tag.tagName) &&
    node.tag.key === last.tag.key
  ) {
    for (const child of node.children) appendNode(last.children, child);
    return;
  }
  list.push(node);
}

/** Whether an element with this tag name is anywhere among the nodes. */
function containsTag(nodes: readonly HtmlNode[], tagName: string): boolean {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.tag.tagName === tagName || containsTag(node.children, tagName)) return true;
  }
  return false;
}

/**
 * The nodes as hast, as an HTML parser builds it from mammoth's HTML: neighbouring text joined,
 * and a bookmark inside a link (`<a href><a id></a></a>`) closing the link (see appendLink).
 */
export function toHast(nodes: readonly HtmlNode[]): ElementContent[] {
  const result: ElementContent[] = [];
  for (const node of nodes) append(result, node);
  return result;
}

function append(result: ElementContent[], node: HtmlNode): void {
  if (typeof node === 'string') {
    const last = result[result.length - 1];
    if (last?.type === 'text') last.value += node;
    else result.push({ type: 'text', value: node });
    return;
  }
  if (isLink(node)) return appendLink(result, node);
  result.push(hastElement(node, toHast(node.children)));
}

/**
 * An HTML parser that meets `<a>` inside an open `<a>` closes the open one first. Bookmarks are
 * the empty `<a id>` that a link can hold directly (LibreOffice and Word put them there): the
 * link ends at the first one, and what follows stands after it, unlinked. A link anywhere deeper
 * is rebuilt in ways not worth imitating: mammoth converts such documents.
 */
function appendLink(result: ElementContent[], link: HtmlElement): void {
  let end = link.children.length;
  link.children.forEach((child, i) => {
    if (typeof child === 'string') return;
    if (isLink(child) || containsTag(child.children, 'a')) {
      throw new UnsupportedDocx('link inside a link');
    }
    if (child.tag.tagName === 'a') end = Math.min(end, i);
  });
  result.push(hastElement(link, toHast(link.children.slice(0, end))));
  for (const child of link.children.slice(end)) append(result, child);
}

function isLink(node: HtmlElement): boolean {
  return node.tag.tagName === 'a' && node.tag.properties.href !== undefined;
}

function hastElement(node: HtmlElement, children: ElementContent[]): ElementContent {
  return {
    type: 'element',
    tagName: node.tag.tagName,
    properties: { ...node.tag.properties },
    children,
  };
}
