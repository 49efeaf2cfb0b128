import type { Element, ElementContent, Properties, Root } from 'hast';

// A fast parser for the HTML our converters write (mammoth, markdown-it): explicit closing
// tags, double-quoted attributes, five named character references. It is 4–5× faster than
// parse5 on a book. Anything outside that shape — where an HTML parser would repair, re-nest or
// switch tokenizer state — makes it give up (null), and the caller uses parse5. The sanitiser
// after it is the security boundary either way; this only has to see the same structure.

const VOID_ELEMENTS = new Set([
  'br',
  'hr',
  'img',
  'col',
  'wbr',
  'input',
  'meta',
  'link',
  'area',
  'base',
  'source',
  'embed',
  'param',
  'track',
]);
// Elements that switch the HTML tokenizer into another state, or are restructured by the tree builder.
const GIVE_UP_ELEMENTS = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'template',
  'pre',
  'listing',
  'html',
  'head',
  'body',
  'frameset',
  'svg',
  'math',
  'select',
  'option',
  'optgroup',
  'form',
  'button',
  'image',
  'isindex',
]);
// Opening one of these closes an open <p> in a real parser: give up rather than imitate it.
const CLOSES_PARAGRAPH = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'section',
  'summary',
  'ul',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'hr',
  'dd',
  'dt',
  'li',
]);
const TABLE_CONTEXT = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);
const NAMED_REFERENCES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};
const TAG_NAME = /[a-z][a-z0-9]*/y;
const ATTRIBUTE = /\s+([a-z][a-z0-9-]*)="([^"<]*)"/y;
const HEADING = /^h[1-6]$/;
// hast property names for the attributes converters write; any other attribute makes us give up.
const PROPERTY_NAMES: Record<string, string> = {
  id: 'id',
  class: 'className',
  href: 'href',
  src: 'src',
  alt: 'alt',
  title: 'title',
  name: 'name',
  role: 'role',
  start: 'start',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  style: 'style',
  lang: 'lang',
  dir: 'dir',
  width: 'width',
  height: 'height',
  align: 'align',
  type: 'type',
  'aria-hidden': 'ariaHidden',
  'aria-label': 'ariaLabel',
  'data-custom-style': 'dataCustomStyle',
};

class GiveUp extends Error {}

/** Parses converter output into hast, or returns null when it is not in the strict shape. */
export function parseStrictHtml(html: string): Root | null {
  try {
    return parse(html);
  } catch (error) {
    if (error instanceof GiveUp) return null;
    throw error;
  }
}

function parse(html: string): Root {
  if (html.includes('\r') || html.includes('\0')) throw new GiveUp();
  const root: Root = { type: 'root', children: [] };
  const stack: Element[] = [];
  const current = (): Root | Element => stack[stack.length - 1] ?? root;
  let openParagraphs = 0;
  let openLinks = 0;
  let index = 0;

  while (index < html.length) {
    const next = html.indexOf('<', index);
    const end = next === -1 ? html.length : next;
    if (end > index) {
      const value = decode(html.slice(index, end));
      const parent = current();
      if (parent.type === 'element' && TABLE_CONTEXT.has(parent.tagName) && /\S/.test(value))
        throw new GiveUp();
      const last = parent.children[parent.children.length - 1];
      if (last?.type === 'text') last.value += value;
      else (parent.children as ElementContent[]).push({ type: 'text', value });
    }
    if (next === -1) break;
    index = next + 1;

    if (html[index] === '/') {
      const name = matchAt(TAG_NAME, html, index + 1)?.[0];
      const close = index + 1 + (name?.length ?? 0);
      const open = stack[stack.length - 1];
      if (!name || html[close] !== '>' || open?.tagName !== name) throw new GiveUp();
      stack.pop();
      if (name === 'p') openParagraphs -= 1;
      if (name === 'a') openLinks -= 1;
      index = close + 1;
      continue;
    }

    const name = matchAt(TAG_NAME, html, index)?.[0];
    if (!name || GIVE_UP_ELEMENTS.has(name)) throw new GiveUp();
    if (!nestsAsWritten(name, current())) throw new GiveUp();
    if (openParagraphs > 0 && CLOSES_PARAGRAPH.has(name)) throw new GiveUp();
    if (name === 'a' && openLinks > 0) throw new GiveUp();
    index += name.length;
    const properties: Properties = {};
    for (
      let match = matchAt(ATTRIBUTE, html, index);
      match;
      match = matchAt(ATTRIBUTE, html, index)
    ) {
      const [whole, attribute = '', raw = ''] = match;
      const property = PROPERTY_NAMES[attribute];
      if (property === undefined) throw new GiveUp();
      const value = decode(raw);
      properties[property] = property === 'className' ? value.split(/\s+/).filter(Boolean) : value;
      index += whole.length;
    }
    while (html[index] === ' ') index += 1;
    const selfClosing = html.startsWith('/>', index);
    if (!selfClosing && html[index] !== '>') throw new GiveUp();
    index += selfClosing ? 2 : 1;
    if (selfClosing && !VOID_ELEMENTS.has(name)) throw new GiveUp();

    const element: Element = { type: 'element', tagName: name, properties, children: [] };
    (current().children as ElementContent[]).push(element);
    if (VOID_ELEMENTS.has(name)) continue;
    stack.push(element);
    if (name === 'p') openParagraphs += 1;
    if (name === 'a') openLinks += 1;
  }
  if (stack.length > 0) throw new GiveUp();
  return root;
}

function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(text);
}

/** Whether an HTML parser would put this element where it is written (no implied tags, no moves). */
function nestsAsWritten(name: string, parent: Root | Element): boolean {
  const parentName = parent.type === 'element' ? parent.tagName : '';
  if (name === 'li') return parentName === 'ul' || parentName === 'ol';
  if (name === 'dt' || name === 'dd') return parentName === 'dl';
  if (name === 'tr') return /^(?:table|thead|tbody|tfoot)$/.test(parentName);
  if (name === 'td' || name === 'th') return parentName === 'tr';
  if (/^(?:thead|tbody|tfoot|caption|colgroup)$/.test(name)) return parentName === 'table';
  if (name === 'col') return parentName === 'colgroup';
  if (TABLE_CONTEXT.has(parentName)) return false; // a parser would move it out of the table
  if (HEADING.test(name) && HEADING.test(parentName)) return false; // a heading closes an open one
  return true;
}

function decode(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&([a-z]+|#\d+|#x[0-9a-f]+);?/gi, (reference, name: string) => {
    if (!reference.endsWith(';')) throw new GiveUp();
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (
        !(code > 0 && code <= 0x10ffff) ||
        (code >= 0xd800 && code <= 0xdfff) ||
        (code >= 0x80 && code <= 0x9f)
      ) {
        throw new GiveUp(); // parse5 maps or replaces these
      }
      return String.fromCodePoint(code);
    }
    const character = NAMED_REFERENCES[name];
    if (character === undefined) throw new GiveUp();
    return character;
  });
}
