import type { Element, ElementContent, Root } from 'hast';
import { classesOf, element, stringProperty, text } from './hast.ts';

/** Where the footnotes of a parsed document are, found before anything is sanitised. */
export interface FootnoteIndex {
  /** Reference link → note number (1-based, in order of first reference). */
  readonly referenceNumber: Map<Element, number>;
  /** Reference link → how many references to the same note came before it, plus one. */
  readonly referenceOrdinal: Map<Element, number>;
  /** Elements never copied where they stand: note bodies, back-links, note-number anchors. */
  readonly skipped: Set<Element>;
  /** Ancestors of note bodies: dropped when nothing visible is left in them. */
  readonly noteAncestors: Set<Element>;
  /** Note bodies, by note number − 1. */
  readonly notes: Element[];
}

// Converters mark notes in several ways: pandoc (fn1, footnote-ref, doc-noteref), mammoth
// (footnote-1, footnote-ref-1), markdown-it (fn1, fnref1), LibreOffice (sdfootnote1anc),
// Word's "web page" (_ftn1, _ftnref1).
const REFERENCE_MARKER =
  /(?:fn|note|ftn|footnote|endnote)[-_:]?ref|sdfootnote\d+anc|sdendnote\d+anc/i;
const NOTE_MARKER =
  /footnote|endnote|sdfootnote|sdendnote|^_?fn\d|^_?ftn\d|^_?edn\d|doc-endnote|doc-footnote/i;
const NOTE_CONTAINER_TAGS = new Set(['li', 'aside', 'div', 'section', 'dd']);

/** Finds footnote references and their notes: a link to a note that links back, or one marked as such. */
export function indexFootnotes(root: Root): FootnoteIndex {
  const parents = new Map<Element, Element | Root>();
  const targets = new Map<string, Element>();
  const internalLinks: Element[] = [];

  const walk = (node: Element | Root) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      parents.set(child, node);
      const id = stringProperty(child, 'id');
      if (id && !targets.has(id)) targets.set(id, child);
      if (child.tagName === 'a') {
        const name = stringProperty(child, 'name');
        if (name && !targets.has(name)) targets.set(name, child);
        if (stringProperty(child, 'href')?.startsWith('#')) internalLinks.push(child);
      }
      walk(child);
    }
  };
  walk(root);

  const index: FootnoteIndex = {
    referenceNumber: new Map(),
    referenceOrdinal: new Map(),
    skipped: new Set(),
    noteAncestors: new Set(),
    notes: [],
  };
  const noteNumber = new Map<Element, number>();
  const referenceCount = new Map<number, number>();

  for (const link of internalLinks) {
    if (index.skipped.has(link)) continue;
    const fragment = safeDecode((stringProperty(link, 'href') ?? '').slice(1));
    const target = targets.get(fragment);
    if (target === undefined || target === link) continue;
    const note = noteContainerOf(target, parents);
    if (note === null || isAncestor(note, link, parents)) continue;

    const backLinks = referenceKeys(link, parents).flatMap((key) => findLinksTo(note, key));
    const markedAsNote =
      isMarked(link, REFERENCE_MARKER) &&
      (isMarked(note, NOTE_MARKER) || isMarked(target, NOTE_MARKER));
    if (backLinks.length === 0 && !markedAsNote) continue;

    let number = noteNumber.get(note);
    if (number === undefined) {
      index.notes.push(note);
      number = index.notes.length;
      noteNumber.set(note, number);
      index.skipped.add(note);
      for (
        let parent = parents.get(note);
        parent && parent.type === 'element';
        parent = parents.get(parent)
      ) {
        index.noteAncestors.add(parent);
      }
    }
    const ordinal = (referenceCount.get(number) ?? 0) + 1;
    referenceCount.set(number, ordinal);
    index.referenceNumber.set(link, number);
    index.referenceOrdinal.set(link, ordinal);
    for (const backLink of backLinks) index.skipped.add(backLink);
    // The note's own number anchor (LibreOffice, Word) would repeat the number inside the note.
    if (target !== note && target.tagName === 'a') index.skipped.add(target);
  }
  return index;
}

// Back-links point at the reference link itself, or at a <sup> wrapped around it.
function referenceKeys(link: Element, parents: Map<Element, Element | Root>): string[] {
  const keys = [stringProperty(link, 'id'), stringProperty(link, 'name')];
  const parent = parents.get(link);
  if (parent?.type === 'element' && parent.tagName === 'sup')
    keys.push(stringProperty(parent, 'id'));
  return keys.filter((key): key is string => key !== undefined && key !== '');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function noteContainerOf(target: Element, parents: Map<Element, Element | Root>): Element | null {
  for (
    let node: Element | Root | undefined = target;
    node && node.type === 'element';
    node = parents.get(node)
  ) {
    if (node.tagName === 'body' || node.tagName === 'html') break;
    if (NOTE_CONTAINER_TAGS.has(node.tagName)) return node;
  }
  // A note may be a bare paragraph holding the number anchor.
  const parent = parents.get(target);
  if (target.tagName === 'a' && parent?.type === 'element' && parent.tagName === 'p') return parent;
  return target.tagName === 'p' ? target : null;
}

function isAncestor(
  candidate: Element,
  node: Element,
  parents: Map<Element, Element | Root>,
): boolean {
  for (
    let parent = parents.get(node);
    parent;
    parent = parent.type === 'element' ? parents.get(parent) : undefined
  ) {
    if (parent === candidate) return true;
  }
  return false;
}

function findLinksTo(node: Element, key: string): Element[] {
  const found: Element[] = [];
  const walk = (current: Element) => {
    for (const child of current.children) {
      if (child.type !== 'element') continue;
      if (
        child.tagName === 'a' &&
        safeDecode((stringProperty(child, 'href') ?? '').slice(1)) === key
      ) {
        if (stringProperty(child, 'href')?.startsWith('#')) found.push(child);
      }
      walk(child);
    }
  };
  walk(node);
  return found;
}

function isMarked(node: Element, pattern: RegExp): boolean {
  const values = [
    stringProperty(node, 'id'),
    stringProperty(node, 'name'),
    stringProperty(node, 'role'),
    ...classesOf(node),
  ];
  return values.some((value) => value !== undefined && pattern.test(value));
}

function referenceId(number: number, ordinal: number): string {
  return ordinal === 1 ? `fnref-${number}` : `fnref-${number}-${ordinal}`;
}

/** The in-text marker of a note, in the one shape every format gets. */
export function buildReference(number: number, ordinal: number): Element {
  return element('sup', {}, [
    element(
      'a',
      { href: `#fn-${number}`, id: referenceId(number, ordinal), className: ['footnote-ref'] },
      [text(String(number))],
    ),
  ]);
}

/** The notes section appended after the last block; each note ends with a link back to its reference. */
export function buildNotesSection(notes: ElementContent[][]): Element {
  const items = notes.map((blocks, i) => {
    const number = i + 1;
    const backLink = element(
      'a',
      {
        href: `#${referenceId(number, 1)}`,
        className: ['footnote-back'],
        ariaLabel: `Back to note ${number} in the text`,
      },
      [text('↩')],
    );
    const content = [...blocks];
    const last = content[content.length - 1];
    if (last?.type === 'element' && last.tagName === 'p') {
      content[content.length - 1] = { ...last, children: [...last.children, text(' '), backLink] };
    } else {
      content.push(element('p', {}, [backLink]));
    }
    return element('li', { id: `fn-${number}` }, content);
  });
  return element('section', { id: 'footnotes', className: ['footnotes'] }, [
    element('ol', {}, items),
  ]);
}
