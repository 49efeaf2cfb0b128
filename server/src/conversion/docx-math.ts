// Word's equations (Office Math, OMML: m:oMath and m:oMathPara) as MathML, which browsers render
// (MathML Core). mammoth leaves equations out; we keep them. The mapping follows Microsoft's own
// OMML2MML.XSL in outline: fractions, scripts, radicals, n-ary operators, delimiters, functions,
// limits, accents, bars, group characters, matrices and equation arrays. The normaliser's MathML
// allow-list (normalise/mathml.ts) checks the result like any other markup.
import { keptElement, tag, type HtmlElement, type HtmlNode } from './docx-html.ts';
import { childValue, first, textOf } from './docx-package.ts';
import type { XmlElement, XmlNode } from './odt-xml.ts';

type Properties = Record<string, string>;

const element = (name: string, children: HtmlNode[], properties: Properties = {}): HtmlElement =>
  keptElement(tag(name, properties), children);

/** One `<math>` for an m:oMath: inline, or a block of its own inside m:oMathPara. */
export function readOfficeMath(oMath: XmlElement, display: boolean): HtmlElement {
  return element('math', readChildren(oMath.children), display ? { display: 'block' } : {});
}

/** The equations of an m:oMathPara, each a block formula. */
export function readOfficeMathParagraph(paragraph: XmlElement): HtmlElement[] {
  return paragraph.children
    .filter((child): child is XmlElement => typeof child !== 'string' && child.name === 'm:oMath')
    .map((oMath) => readOfficeMath(oMath, true));
}

function readChildren(nodes: readonly XmlNode[]): HtmlNode[] {
  const result: HtmlNode[] = [];
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    for (const converted of readElement(node)) result.push(converted);
  }
  return result;
}

/** The content of an argument (m:e, m:num, m:sub …) as one node: a row unless it is one node. */
function argument(parent: XmlElement | null, name: string): HtmlNode {
  const children = readChildren(first(parent, name)?.children ?? []);
  return children.length === 1 ? (children[0] as HtmlNode) : element('mrow', children);
}

function operator(value: string, properties: Properties = {}): HtmlElement {
  return element('mo', [value], properties);
}

/** A character property (m:chr, m:begChr …): its value, the default when absent. */
function character(properties: XmlElement | null, name: string, fallback: string): string {
  const property = first(properties, name);
  if (property === null) return fallback;
  return property.attributes['m:val'] ?? '';
}

function isOn(properties: XmlElement | null, name: string): boolean {
  const property = first(properties, name);
  if (property === null) return false;
  const value = property.attributes['m:val'];
  return value === undefined || value === '1' || value === 'on' || value === 'true';
}

function readElement(node: XmlElement): HtmlNode[] {
  const properties = first(node, `${node.name}Pr`);
  switch (node.name) {
    case 'm:r':
      return readRun(node, false);
    case 'w:r':
      return readRun(node, true);
    case 'm:f': {
      const numerator = argument(node, 'm:num');
      const denominator = argument(node, 'm:den');
      const type = childValue(properties, 'm:type', 'm:val');
      if (type === 'lin' || type === 'skw') {
        return [element('mrow', [numerator, operator('/'), denominator])];
      }
      return [
        element('mfrac', [numerator, denominator], type === 'noBar' ? { linethickness: '0' } : {}),
      ];
    }
    case 'm:sSup':
      return [element('msup', [argument(node, 'm:e'), argument(node, 'm:sup')])];
    case 'm:sSub':
      return [element('msub', [argument(node, 'm:e'), argument(node, 'm:sub')])];
    case 'm:sSubSup':
      return [
        element('msubsup', [
          argument(node, 'm:e'),
          argument(node, 'm:sub'),
          argument(node, 'm:sup'),
        ]),
      ];
    case 'm:sPre':
      return [
        element('mmultiscripts', [
          argument(node, 'm:e'),
          element('mprescripts', []),
          argument(node, 'm:sub'),
          argument(node, 'm:sup'),
        ]),
      ];
    case 'm:rad': {
      const degree = readChildren(first(node, 'm:deg')?.children ?? []);
      if (isOn(properties, 'm:degHide') || degree.length === 0) {
        return [element('msqrt', [argument(node, 'm:e')])];
      }
      return [element('mroot', [argument(node, 'm:e'), argument(node, 'm:deg')])];
    }
    case 'm:nary':
      return [readNary(node, properties)];
    case 'm:d':
      return [readDelimiter(node, properties)];
    case 'm:func':
      return [
        element('mrow', [argument(node, 'm:fName'), operator('\u2061'), argument(node, 'm:e')]),
      ];
    case 'm:limLow':
      return [element('munder', [argument(node, 'm:e'), argument(node, 'm:lim')])];
    case 'm:limUpp':
      return [element('mover', [argument(node, 'm:e'), argument(node, 'm:lim')])];
    case 'm:acc':
      return [
        element(
          'mover',
          [argument(node, 'm:e'), operator(character(properties, 'm:chr', '\u0302'))],
          { accent: 'true' },
        ),
      ];
    case 'm:bar': {
      const top = childValue(properties, 'm:pos', 'm:val') === 'top';
      return [
        element(top ? 'mover' : 'munder', [argument(node, 'm:e'), operator(top ? '\u203e' : '_')], {
          [top ? 'accent' : 'accentunder']: 'true',
        }),
      ];
    }
    case 'm:groupChr': {
      const top = childValue(properties, 'm:pos', 'm:val') === 'top';
      const symbol = character(properties, 'm:chr', top ? '\u23de' : '\u23df');
      return [element(top ? 'mover' : 'munder', [argument(node, 'm:e'), operator(symbol)])];
    }
    case 'm:m':
      return [
        element(
          'mtable',
          node.children
            .filter((row): row is XmlElement => typeof row !== 'string' && row.name === 'm:mr')
            .map((row) => element('mtr', cellsOf(row))),
        ),
      ];
    case 'm:eqArr':
      return [
        element(
          'mtable',
          cellsOf(node).map((cell) => element('mtr', [cell])),
        ),
      ];
    case 'm:phant':
      return [element(isOn(properties, 'm:show') ? 'mrow' : 'mphantom', [argument(node, 'm:e')])];
    case 'm:box':
    case 'm:borderBox':
      return [argument(node, 'm:e')];
    case 'm:oMath':
      return readChildren(node.children);
  }
  // Properties, control properties, bookmarks, tracked-change marks: nothing to show.
  if (node.name.endsWith('Pr') || !node.name.startsWith('m:')) {
    if (node.name === 'w:ins' || node.name === 'w:smartTag') return readChildren(node.children);
    return [];
  }
  return [element('mrow', readChildren(node.children))];
}

/** The m:e cells of a matrix row or an equation array, each an `<mtd>`. */
function cellsOf(row: XmlElement): HtmlElement[] {
  return row.children
    .filter((cell): cell is XmlElement => typeof cell !== 'string' && cell.name === 'm:e')
    .map((cell) => element('mtd', readChildren(cell.children)));
}

/** ∑, ∫, ∏ … with limits under and over (or as scripts), then the expression. */
function readNary(node: XmlElement, properties: XmlElement | null): HtmlElement {
  const symbol = operator(character(properties, 'm:chr', '\u222b'), { largeop: 'true' });
  const lower = isOn(properties, 'm:subHide') ? null : argument(node, 'm:sub');
  const upper = isOn(properties, 'm:supHide') ? null : argument(node, 'm:sup');
  const underOver = childValue(properties, 'm:limLoc', 'm:val') === 'undOvr';
  let base: HtmlElement;
  if (lower !== null && upper !== null) {
    base = element(underOver ? 'munderover' : 'msubsup', [symbol, lower, upper]);
  } else if (lower !== null) {
    base = element(underOver ? 'munder' : 'msub', [symbol, lower]);
  } else if (upper !== null) {
    base = element(underOver ? 'mover' : 'msup', [symbol, upper]);
  } else {
    base = symbol;
  }
  return element('mrow', [base, argument(node, 'm:e')]);
}

/** Brackets around one or more expressions, with separators between them. */
function readDelimiter(node: XmlElement, properties: XmlElement | null): HtmlElement {
  const open = character(properties, 'm:begChr', '(');
  const close = character(properties, 'm:endChr', ')');
  const separator = character(properties, 'm:sepChr', '|');
  const children: HtmlNode[] = [];
  if (open !== '') children.push(operator(open, { fence: 'true' }));
  const items = node.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && child.name === 'm:e',
  );
  items.forEach((item, i) => {
    if (i > 0 && separator !== '') children.push(operator(separator, { separator: 'true' }));
    const content = readChildren(item.children);
    children.push(content.length === 1 ? (content[0] as HtmlNode) : element('mrow', content));
  });
  if (close !== '') children.push(operator(close, { fence: 'true' }));
  return element('mrow', children);
}

const TOKEN = /(\d+(?:[.,]\d+)*)|(\p{L}\p{M}*)|(\s+)|([^\d\p{L}\s])/gu;

/**
 * A run of math text as tokens: numbers `<mn>`, letters `<mi>` (one each: a product of variables),
 * anything else `<mo>`. Plain-text runs (m:nor, or a Word run) stay `<mtext>`; upright runs
 * (m:sty "p", as Word writes function names) keep their letters together.
 */
function readRun(run: XmlElement, wordRun: boolean): HtmlNode[] {
  let value = '';
  for (const child of run.children) {
    if (typeof child !== 'string' && (child.name === 'm:t' || child.name === 'w:t')) {
      value += textOf(child);
    }
  }
  if (value === '') return [];
  const properties = first(run, 'm:rPr');
  if (wordRun || isOn(properties, 'm:nor')) return [element('mtext', [value])];
  const upright = childValue(properties, 'm:sty', 'm:val') === 'p';
  const result: HtmlNode[] = [];
  let letters = '';
  const flushLetters = () => {
    if (letters !== '') result.push(element('mi', [letters]));
    letters = '';
  };
  for (const match of value.matchAll(TOKEN)) {
    const [, number, letter, , other] = match;
    if (letter !== undefined) {
      if (upright) letters += letter;
      else result.push(element('mi', [letter]));
      continue;
    }
    flushLetters();
    if (number !== undefined) result.push(element('mn', [number]));
    else if (other !== undefined) result.push(operator(other));
  }
  flushLetters();
  return result;
}
