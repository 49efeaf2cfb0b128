// The MathML allow-list: formulas keep the elements and attributes of MathML Core (what
// Chromium, Firefox and Safari render) and nothing else. No links, no styles, no ids or classes,
// no event handlers, no annotations (annotation-xml can carry HTML or SVG). Attribute values must
// have the shape MathML Core gives them; anything else is left out.
import type { Element, ElementContent } from 'hast';
import { DROPPED as DROPPED_HTML } from './allow-list.ts';
import { element, text } from './hast.ts';

// Presentation elements of MathML Core that keep their children.
const CONTAINERS = new Set([
  'mrow',
  'mfrac',
  'msqrt',
  'mroot',
  'mstyle',
  'merror',
  'mpadded',
  'mphantom',
  'msub',
  'msup',
  'msubsup',
  'munder',
  'mover',
  'munderover',
  'mmultiscripts',
  'mtable',
  'mtr',
  'mtd',
]);
// Token elements: their content is text.
const TOKENS = new Set(['mi', 'mn', 'mo', 'ms', 'mtext']);
// Empty elements.
const EMPTY = new Set(['mspace', 'mprescripts', 'none']);
// Left out with everything inside them.
const DROPPED = new Set(['annotation', 'annotation-xml']);

const LENGTH = /^-?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|in|cm|mm|pt|pc|%)?$/;
const BOOLEAN = /^(?:true|false)$/;
const ATTRIBUTES: Record<string, RegExp> = {
  display: /^(?:block|inline)$/,
  displaystyle: BOOLEAN,
  scriptlevel: /^[+-]?\d{1,2}$/,
  mathvariant:
    /^(?:normal|bold|italic|bold-italic|double-struck|script|bold-script|fraktur|bold-fraktur|sans-serif|bold-sans-serif|sans-serif-italic|sans-serif-bold-italic|monospace)$/,
  dir: /^(?:ltr|rtl)$/,
  // mo
  form: /^(?:prefix|infix|postfix)$/,
  fence: BOOLEAN,
  separator: BOOLEAN,
  stretchy: BOOLEAN,
  symmetric: BOOLEAN,
  largeop: BOOLEAN,
  movablelimits: BOOLEAN,
  lspace: LENGTH,
  rspace: LENGTH,
  minsize: LENGTH,
  maxsize: LENGTH,
  // munder, mover, munderover
  accent: BOOLEAN,
  accentunder: BOOLEAN,
  // mfrac
  linethickness: LENGTH,
  // mspace, mpadded
  width: LENGTH,
  height: LENGTH,
  depth: LENGTH,
  voffset: LENGTH,
  // mtd
  columnspan: /^[1-9]\d?$/,
  rowspan: /^[1-9]\d?$/,
};

/** The allow-listed copy of a `<math>` element, or null when nothing of it is left. */
export function sanitiseMath(node: Element): Element | null {
  const children = mathChildren(node.children);
  if (children.length === 0) return null;
  return element('math', attributesOf(node), children);
}

function mathChildren(children: readonly ElementContent[]): ElementContent[] {
  const result: ElementContent[] = [];
  for (const child of children) {
    if (child.type === 'text') {
      if (/\S/.test(child.value)) result.push(element('mtext', {}, [text(child.value.trim())]));
    } else if (child.type === 'element') {
      result.push(...mathElement(child));
    }
  }
  return result;
}

function mathElement(node: Element): ElementContent[] {
  const tag = node.tagName.toLowerCase();
  if (DROPPED.has(tag)) return [];
  if (TOKENS.has(tag)) {
    const content = tokenText(node);
    return content === '' && tag !== 'mo'
      ? []
      : [element(tag, attributesOf(node), [text(content)])];
  }
  if (EMPTY.has(tag)) return [element(tag, attributesOf(node))];
  if (CONTAINERS.has(tag)) return [element(tag, attributesOf(node), mathChildren(node.children))];
  switch (tag) {
    case 'semantics':
    case 'maction': {
      // What is shown: the first child (the presentation markup; the action's first state).
      const shown = node.children.find((child): child is Element => child.type === 'element');
      return shown === undefined ? [] : mathElement(shown);
    }
    case 'mfenced':
      return [fenced(node)];
    case 'math':
      return mathChildren(node.children);
  }
  // Anything else (HTML inside mtext, legacy or unknown elements) keeps only its text.
  const content = tokenText(node);
  return content === '' ? [] : [element('mtext', {}, [text(content)])];
}

/** Legacy `<mfenced>`, which MathML Core dropped: a row with its fences and separators as `<mo>`. */
function fenced(node: Element): Element {
  const open = stringAttribute(node, 'open') ?? '(';
  const close = stringAttribute(node, 'close') ?? ')';
  const separators = (stringAttribute(node, 'separators') ?? ',').replace(/\s+/g, '');
  const items = mathChildren(node.children);
  const children: ElementContent[] = [];
  if (open !== '') children.push(element('mo', {}, [text(open.slice(0, 4))]));
  items.forEach((item, i) => {
    if (i > 0 && separators !== '') {
      const separator = separators[Math.min(i - 1, separators.length - 1)] ?? ',';
      children.push(element('mo', { separator: 'true' }, [text(separator)]));
    }
    children.push(item);
  });
  if (close !== '') children.push(element('mo', {}, [text(close.slice(0, 4))]));
  return element('mrow', {}, children);
}

function tokenText(node: Element): string {
  let result = '';
  const walk = (children: readonly ElementContent[]) => {
    for (const child of children) {
      if (child.type === 'text') result += child.value;
      else if (
        child.type === 'element' &&
        !DROPPED.has(child.tagName) &&
        !DROPPED_HTML.has(child.tagName)
      ) {
        walk(child.children);
      }
    }
  };
  walk(node.children);
  return result.replace(/\s+/g, ' ').trim();
}

/** The allowed attributes of an element, by their MathML names, values checked. */
function attributesOf(node: Element): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(node.properties)) {
    const name = key.toLowerCase();
    const pattern = ATTRIBUTES[name];
    if (pattern === undefined) continue;
    const stringValue = Array.isArray(value) ? value.join(' ') : String(value);
    if (pattern.test(stringValue.trim())) result[name] = stringValue.trim();
  }
  return result;
}

function stringAttribute(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  return value === undefined || value === null ? undefined : String(value);
}
