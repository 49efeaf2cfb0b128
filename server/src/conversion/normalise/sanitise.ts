import type { Element, ElementContent, Properties, Root, RootContent } from 'hast';
import {
  BLOCK_OUTPUT,
  DROPPED,
  EMPHASIS,
  HEADINGS,
  PARAGRAPH_LIKE,
  STRONG,
  UNWRAPPED_BLOCKS,
} from './allow-list.ts';
import { buildReference, type FootnoteIndex } from './footnotes.ts';
import { applyInlineStyle, inlineStyleOf, type InlineStyle } from './inline-styles.ts';
import { classesOf, element, hasVisibleContent, stringProperty, text } from './hast.ts';
import { sanitiseMath } from './mathml.ts';
import { picturePlaceholder, resolvePicture, type PictureProblem } from './pictures.ts';
import { safeLinkHref } from './urls.ts';

/** What the allow-list transform needs to know about one document. */
export interface SanitiseContext {
  footnotes: FootnoteIndex;
  /** Image `src` as the converter wrote it → public URL; any other image is dropped. */
  images: ReadonlyMap<string, string>;
  /** Public image URLs that made it into the output. */
  usedImages: Set<string>;
  /** Italics and bold given by CSS classes (see inline-styles.ts). */
  classStyles: ReadonlyMap<string, InlineStyle>;
  /** Stores the picture of a `data:` URL (HTML and Markdown uploads); see pictures.ts. */
  storePicture?: (data: Uint8Array) => string | null;
  /** Pictures replaced by a placeholder, by reason, in the order they stand. */
  missingPictures: PictureProblem[];
  /** Formulas kept. */
  formulas: number;
}

type Mode = 'flow' | 'phrasing';
type Children = ReadonlyArray<RootContent | ElementContent>;

const footnoteReferences = new WeakSet<Element>();
const COLLAPSIBLE_SPACE = /[\t\n\r\f]| {2}/;
const COLLAPSIBLE_SPACES = /[ \t\n\r\f]+/g;

/** Copies the allowed part of a parsed document: one flat list of top-level blocks, nothing else. */
export function sanitiseDocument(root: Root, context: SanitiseContext): ElementContent[] {
  return groupInline(sanitiseChildren(root.children, 'flow', context));
}

/** The content of one note, as blocks. */
export function sanitiseNote(note: Element, context: SanitiseContext): ElementContent[] {
  if (note.tagName === 'p')
    return groupInline([paragraph(sanitiseChildren(note.children, 'phrasing', context))]);
  return groupInline(sanitiseChildren(note.children, 'flow', context));
}

function sanitiseChildren(
  children: Children,
  mode: Mode,
  context: SanitiseContext,
): ElementContent[] {
  const result: ElementContent[] = [];
  for (const child of children) {
    if (child.type === 'text') {
      const value = COLLAPSIBLE_SPACE.test(child.value)
        ? child.value.replace(COLLAPSIBLE_SPACES, ' ')
        : child.value;
      if (value !== '') result.push(text(value));
    } else if (child.type === 'element') {
      sanitiseElement(child, mode, context, result);
    }
  }
  return result;
}

function sanitiseElement(
  node: Element,
  mode: Mode,
  context: SanitiseContext,
  out: ElementContent[],
) {
  const tag = node.tagName.toLowerCase();
  if (DROPPED.has(tag) || context.footnotes.skipped.has(node)) return;

  const footnoteNumber = context.footnotes.referenceNumber.get(node);
  if (footnoteNumber !== undefined) {
    const reference = buildReference(
      footnoteNumber,
      context.footnotes.referenceOrdinal.get(node) ?? 1,
    );
    footnoteReferences.add(reference);
    out.push(reference);
    return;
  }

  const flow = mode === 'flow';
  const headingLevel = HEADINGS[tag];
  if (headingLevel !== undefined) {
    if (!flow) return inlineFallback(node, context, out);
    pushIfVisible(
      out,
      element(`h${headingLevel}`, {}, trimEdges(phrasingOf(node.children, context))),
    );
    return;
  }

  switch (tag) {
    case 'p':
      if (!flow) return inlineFallback(node, context, out);
      pushIfVisible(out, paragraph(phrasingOf(node.children, context)));
      return;
    case 'pre':
      if (!flow) return inlineFallback(node, context, out);
      pushIfVisible(out, paragraph(preformatted(node, context)));
      return;
    case 'blockquote': {
      if (!flow) return inlineFallback(node, context, out);
      const content = blocksOf(node.children, context);
      if (hasVisibleContent(content)) out.push(element('blockquote', {}, content));
      return;
    }
    case 'ul':
    case 'ol': {
      if (!flow) return inlineFallback(node, context, out);
      const list = buildList(node, tag, context);
      if (list !== null) out.push(list);
      return;
    }
    case 'li':
      // A list item outside a list reads as a paragraph.
      if (!flow) return inlineFallback(node, context, out);
      pushIfVisible(out, paragraph(phrasingOf(node.children, context)));
      return;
    case 'table': {
      if (!flow) return inlineFallback(node, context, out);
      out.push(...buildTable(node, context));
      return;
    }
    case 'hr':
      if (flow && !classesOf(node).includes('footnotes-sep')) out.push(sceneBreak());
      return;
    case 'br':
      if (!flow) out.push(element('br'));
      return;
    case 'sup':
    case 'sub': {
      const content = phrasingOf(node.children, context);
      const single = content.filter((child) => child.type !== 'text' || /\S/.test(child.value));
      // A footnote reference already carries its own <sup>.
      if (
        single.length === 1 &&
        single[0]?.type === 'element' &&
        footnoteReferences.has(single[0])
      ) {
        out.push(single[0]);
        return;
      }
      if (content.length > 0) out.push(element(tag, {}, content));
      return;
    }
    case 'a': {
      const href = safeLinkHref(stringProperty(node, 'href'));
      const content = phrasingOf(node.children, context);
      if (href === null) {
        out.push(...content);
        return;
      }
      if (content.length > 0) {
        out.push(element('a', { href, rel: ['nofollow', 'noopener', 'noreferrer'] }, content));
      }
      return;
    }
    case 'img': {
      const alt = stringProperty(node, 'alt');
      const picture = resolvePicture(
        stringProperty(node, 'src') ?? '',
        context.images,
        context.storePicture,
      );
      if ('problem' in picture) {
        context.missingPictures.push(picture.problem);
        out.push(picturePlaceholder(picture.problem, alt));
        return;
      }
      context.usedImages.add(picture.url);
      out.push(element('img', alt ? { src: picture.url, alt } : { src: picture.url, alt: '' }));
      return;
    }
    case 'math': {
      const math = sanitiseMath(node);
      if (math === null) return;
      context.formulas += 1;
      out.push(math);
      return;
    }
  }

  if (EMPHASIS.has(tag) || STRONG.has(tag)) {
    const content = phrasingOf(node.children, context);
    if (content.length > 0) out.push(element(EMPHASIS.has(tag) ? 'em' : 'strong', {}, content));
    return;
  }
  if (UNWRAPPED_BLOCKS.has(tag)) {
    if (!flow) return inlineFallback(node, context, out);
    const content = blocksOf(node.children, context);
    const ancestorOfNotes = context.footnotes.noteAncestors.has(node);
    if (ancestorOfNotes && !hasVisibleContent(content)) return;
    if (PARAGRAPH_LIKE.has(tag) && content.every((child) => !isBlock(child))) {
      pushIfVisible(out, paragraph(content));
      return;
    }
    out.push(...content);
    return;
  }
  // Anything else (span, font, u, code, custom elements…) gives up its tag and keeps its content,
  // with the italics or bold its CSS asks for.
  const content = sanitiseChildren(node.children, mode, context);
  const hasCss = node.properties.style !== undefined || node.properties.className !== undefined;
  const style = hasCss && !content.some(isBlock) ? inlineStyleOf(node, context.classStyles) : null;
  out.push(...(style && content.length > 0 ? applyInlineStyle(content, style) : content));
}

function phrasingOf(children: Children, context: SanitiseContext): ElementContent[] {
  return sanitiseChildren(children, 'phrasing', context);
}

function blocksOf(children: Children, context: SanitiseContext): ElementContent[] {
  return groupInline(sanitiseChildren(children, 'flow', context));
}

/** A block inside a paragraph or heading: keep its text, apart from its neighbours. */
function inlineFallback(node: Element, context: SanitiseContext, out: ElementContent[]): void {
  out.push(text(' '), ...phrasingOf(node.children, context), text(' '));
}

function paragraph(children: ElementContent[]): Element {
  return element('p', {}, trimEdges(children));
}

function sceneBreak(): Element {
  return element('hr', { className: ['scene-break'] });
}

function pushIfVisible(out: ElementContent[], block: Element) {
  if (hasVisibleContent(block.children)) out.push(block);
}

function isBlock(node: ElementContent): boolean {
  return node.type === 'element' && BLOCK_OUTPUT.has(node.tagName);
}

/** Wraps each run of inline content between blocks into a paragraph; blank runs are dropped. */
function groupInline(nodes: ElementContent[]): ElementContent[] {
  const result: ElementContent[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    if (run.length > 0 && hasVisibleContent(run)) result.push(paragraph(run));
    run = [];
  };
  for (const node of nodes) {
    if (isBlock(node)) {
      flush();
      result.push(node);
    } else {
      run.push(node);
    }
  }
  flush();
  return result;
}

/** Drops blank text and line breaks at the start and end of a block. */
function trimEdges(children: ElementContent[]): ElementContent[] {
  const result = [...children];
  while (result.length > 0 && isBlankInline(result[0] as ElementContent)) result.shift();
  while (result.length > 0 && isBlankInline(result[result.length - 1] as ElementContent))
    result.pop();
  const first = result[0];
  if (first?.type === 'text') result[0] = text(first.value.replace(/^\s+/, ''));
  const last = result[result.length - 1];
  if (last?.type === 'text') result[result.length - 1] = text(last.value.replace(/\s+$/, ''));
  return result;
}

function isBlankInline(node: ElementContent): boolean {
  if (node.type === 'text') return !/\S/.test(node.value);
  return node.type === 'element' && node.tagName === 'br';
}

function preformatted(node: Element, context: SanitiseContext): ElementContent[] {
  // Keep the line breaks of preformatted text as <br>.
  const result: ElementContent[] = [];
  const visit = (children: Children) => {
    for (const child of children) {
      if (child.type === 'text') {
        child.value.split('\n').forEach((line, i) => {
          if (i > 0) result.push(element('br'));
          if (line !== '') result.push(text(line));
        });
      } else if (child.type === 'element') {
        result.push(...sanitiseChildren([child], 'phrasing', context));
      }
    }
  };
  visit(node.children);
  return result;
}

function buildList(node: Element, tag: 'ul' | 'ol', context: SanitiseContext): Element | null {
  const items: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'li') {
      if (context.footnotes.skipped.has(child)) continue;
      const content = groupInlineIfMixed(sanitiseChildren(child.children, 'flow', context));
      if (hasVisibleContent(content)) items.push(element('li', {}, content));
    } else if (child.tagName === 'ul' || child.tagName === 'ol') {
      // A list nested directly in a list belongs to the item before it.
      const nested = buildList(child, child.tagName, context);
      const previous = items[items.length - 1];
      if (nested && previous) previous.children.push(nested);
      else if (nested) items.push(element('li', {}, [nested]));
    } else {
      const content = groupInlineIfMixed(sanitiseChildren([child], 'flow', context));
      if (hasVisibleContent(content)) items.push(element('li', {}, content));
    }
  }
  if (items.length === 0) return null;
  const properties: Properties = {};
  const start = Number(stringProperty(node, 'start'));
  if (tag === 'ol' && Number.isInteger(start) && start !== 1 && Math.abs(start) < 1e6)
    properties.start = start;
  return element(tag, properties, items);
}

/**
 * Content of a list item or table cell: inline content stays inline, and so does a lone paragraph
 * (converters differ on `<li><p>`); inline runs beside blocks are wrapped.
 */
function groupInlineIfMixed(nodes: ElementContent[]): ElementContent[] {
  if (!nodes.some(isBlock)) return trimEdges(nodes);
  const grouped = groupInline(nodes);
  const only = grouped[0];
  if (grouped.length === 1 && only?.type === 'element' && only.tagName === 'p')
    return only.children;
  return grouped;
}

function buildTable(node: Element, context: SanitiseContext): ElementContent[] {
  const captions: ElementContent[] = [];
  const headRows: Element[] = [];
  const bodyRows: Element[] = [];
  const collectRows = (container: Element, inHead: boolean) => {
    for (const child of container.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'tr') {
        const row = buildRow(child, context);
        if (row !== null) (inHead ? headRows : bodyRows).push(row);
      } else if (child.tagName === 'thead') {
        collectRows(child, true);
      } else if (child.tagName === 'tbody' || child.tagName === 'tfoot') {
        collectRows(child, false);
      } else if (child.tagName === 'caption') {
        const caption = paragraph(sanitiseChildren(child.children, 'phrasing', context));
        if (hasVisibleContent(caption.children)) captions.push(caption);
      }
    }
  };
  collectRows(node, false);
  if (headRows.length === 0 && bodyRows.length === 0) return captions;
  const sections: Element[] = [];
  if (headRows.length > 0) sections.push(element('thead', {}, headRows));
  if (bodyRows.length > 0) sections.push(element('tbody', {}, bodyRows));
  return [...captions, element('table', {}, sections)];
}

function buildRow(node: Element, context: SanitiseContext): Element | null {
  const cells: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element' || (child.tagName !== 'td' && child.tagName !== 'th')) continue;
    const properties: Properties = {};
    for (const span of ['colSpan', 'rowSpan'] as const) {
      const value = Number(child.properties[span]);
      if (Number.isInteger(value) && value > 1 && value <= 100) properties[span] = value;
    }
    const content = groupInlineIfMixed(sanitiseChildren(child.children, 'flow', context));
    cells.push(element(child.tagName, properties, content));
  }
  return cells.length > 0 ? element('tr', {}, cells) : null;
}
