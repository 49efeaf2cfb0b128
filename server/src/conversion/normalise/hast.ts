import type { Element, ElementContent, Properties, Root, RootContent, Text } from 'hast';

type AnyNode = Root | RootContent;

export function element(
  tagName: string,
  properties: Properties = {},
  children: ElementContent[] = [],
): Element {
  return { type: 'element', tagName, properties, children };
}

export function text(value: string): Text {
  return { type: 'text', value };
}

/** The element's classes, whatever shape the parser gave them. */
export function classesOf(node: Element): string[] {
  const value = node.properties.className;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? String(value).split(/\s+/) : [];
}

export function stringProperty(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.join(' ');
  return undefined;
}

const SEPARATED = new Set([
  'p',
  'li',
  'td',
  'th',
  'tr',
  'h1',
  'h2',
  'h3',
  'blockquote',
  'ul',
  'ol',
  'table',
  'div',
]);

/**
 * Plain text of a subtree; `<br>` counts as a space so that lines do not run together. Footnote
 * reference numbers are left out: they are not words, and they shift when a note is added.
 */
export function textOf(node: AnyNode | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' && node.type !== 'root') return '';
  if (node.type === 'element') {
    if (node.tagName === 'br') return ' ';
    if (node.tagName === 'a' && classesOf(node).includes('footnote-ref')) return '';
  }
  let result = '';
  for (const child of node.children) result += textOf(child);
  // Cells, items and paragraphs are separate words even where the markup has no space.
  if (node.type === 'element' && SEPARATED.has(node.tagName)) result += ' ';
  return result;
}

/** Text with every run of whitespace made one space, and trimmed. */
export function collapsedText(node: AnyNode | ElementContent): string {
  return textOf(node).replace(/\s+/g, ' ').trim();
}

/** Whether the nodes show anything: non-blank text, an image, a formula or a picture's placeholder. */
export function hasVisibleContent(nodes: readonly ElementContent[]): boolean {
  for (const node of nodes) {
    if (node.type === 'text') {
      if (/\S/.test(node.value)) return true;
    } else if (node.type === 'element') {
      if (node.tagName === 'img' || node.tagName === 'math') return true;
      if (node.tagName === 'span' && node.properties.role === 'img') return true;
      if (hasVisibleContent(node.children)) return true;
    }
  }
  return false;
}
