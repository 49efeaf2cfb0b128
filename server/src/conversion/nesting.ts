// The nesting guard of the HTML and Markdown paths: a linear scan of the markup before any parser
// sees it. parse5 checks element scopes against its whole stack of open elements, so 100,000
// nested elements took ~30 s there and then overflowed the stack of the tree walkers after it.
import { ConversionError } from './errors.ts';
import { MAX_MARKUP_NESTING } from './limits.ts';

/** What the author reads when a file nests too deeply. */
export function nestingMessage(kind: 'HTML' | 'Markdown'): string {
  return (
    `The ${kind} file has elements nested more than ${MAX_MARKUP_NESTING} levels deep, which no ` +
    'manuscript needs: it is damaged or was made by a program. Open it in your editor, save it ' +
    'again (or as DOCX), and upload that file.'
  );
}

// Never hold content, so they never nest.
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'image',
  'keygen',
]);
// Their end tags may be left out: the parser closes them when the next one starts, so an unclosed
// one does not nest. Not counting them keeps sloppy but ordinary HTML far below the limit.
const OPTIONAL_END = new Set([
  'html',
  'head',
  'body',
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'caption',
  'colgroup',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
]);
// Their content is text up to their own end tag.
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

const TAG = /<(\/?)([a-zA-Z][^\s/>]*)(?:[^>"']|"[^"]*"|'[^']*')*>/y;
// What a parser takes for an element name (Word's HTML has prefixed ones, `<o:p>`); Markdown's
// autolinks (`<https://…>`, `<someone@example.com>`) are not elements.
const ELEMENT_NAME = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)?$/;

/** The deepest nesting of elements in HTML, stopping as soon as it passes `limit`. */
export function markupDepth(html: string, limit = MAX_MARKUP_NESTING): number {
  const open: string[] = [];
  let deepest = 0;
  let position = html.indexOf('<');
  while (position !== -1) {
    if (html.startsWith('<!--', position)) {
      const end = html.indexOf('-->', position + 4);
      if (end === -1) break;
      position = html.indexOf('<', end + 3);
      continue;
    }
    TAG.lastIndex = position;
    const match = TAG.exec(html);
    if (match === null) {
      position = html.indexOf('<', position + 1);
      continue;
    }
    const closing = match[1] === '/';
    const name = (match[2] ?? '').toLowerCase();
    position = html.indexOf('<', TAG.lastIndex);
    if (VOID_ELEMENTS.has(name) || OPTIONAL_END.has(name) || !ELEMENT_NAME.test(name)) continue;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index !== -1) open.length = index;
      continue;
    }
    if (match[0].endsWith('/>')) continue;
    if (RAW_TEXT.has(name)) {
      const endTag = new RegExp(`</${name}`, 'ig');
      endTag.lastIndex = TAG.lastIndex;
      const end = endTag.exec(html);
      if (end === null) break;
      position = end.index;
      continue;
    }
    open.push(name);
    if (open.length > deepest) deepest = open.length;
    if (deepest > limit) return deepest;
  }
  return deepest;
}

/** Refuses HTML whose elements nest deeper than MAX_MARKUP_NESTING, before any parser sees it. */
export function assertMarkupNesting(html: string, kind: 'HTML' | 'Markdown'): void {
  if (markupDepth(html) > MAX_MARKUP_NESTING) {
    throw new ConversionError('corrupt', nestingMessage(kind));
  }
}

/**
 * Refuses Markdown whose block quotes nest deeper than MAX_MARKUP_NESTING (`>>>>…` at the start
 * of a line), before markdown-it reads it: it re-reads the line at every level of quoting.
 */
export function assertMarkdownNesting(source: string): void {
  const markers = /^[ \t>]*/gm;
  for (let match = markers.exec(source); match !== null; match = markers.exec(source)) {
    const prefix = match[0];
    if (prefix.length > MAX_MARKUP_NESTING && countOf(prefix, '>') > MAX_MARKUP_NESTING) {
      throw new ConversionError('corrupt', nestingMessage('Markdown'));
    }
    if (prefix === '') markers.lastIndex += 1;
  }
}

function countOf(value: string, character: string): number {
  let count = 0;
  for (const each of value) if (each === character) count += 1;
  return count;
}
