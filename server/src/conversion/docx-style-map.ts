// What mammoth, with our style map (docx-mammoth.ts) and its own default one, makes of a paragraph
// or a run: the path of elements around its content. The rules are tried in the maps' order; the
// few places where we decide differently on purpose are marked "Unlike mammoth".
import { tag, type HtmlTag } from './docx-html.ts';
import type { DocxStyles, ListLevel } from './docx-styles.ts';

type Path = readonly HtmlTag[];

const P: Path = [tag('p')];
const TITLE: Path = [tag('h1', { className: ['title'] })];
const HEADINGS: readonly Path[] = [1, 2, 3, 4, 5, 6].map((level) => [tag(`h${level}`)]);
const QUOTE: Path = [tag('blockquote', {}, false), tag('p')];
const QUOTE_STYLES = new Set(['QUOTE', 'QUOTATIONS', 'INTENSE QUOTE', 'BLOCK TEXT']);
// Paragraph styles of notes and comments: plain paragraphs, even in a list.
const PLAIN_STYLES = new Set([
  'FOOTNOTE TEXT',
  'ENDNOTE TEXT',
  'ANNOTATION TEXT',
  'FOOTNOTE',
  'ENDNOTE',
]);
const HEADING_ID = /^Heading([1-6])$/;
const HEADING_NAME = /^HEADING ([1-9])$/;
/** mammoth's default style map has list rules for five levels. */
const LIST_LEVELS = 5;

const EM = tag('em', {}, false);
const STRONG = tag('strong', {}, false);
const SUPERSCRIPT = tag('sup', {}, false);
const SUBSCRIPT = tag('sub', {}, false);
const STRIKETHROUGH = tag('s', {}, false);

/** A paragraph as the style map sees it. */
interface ParagraphFacts {
  styleId: string | null;
  styleName: string | null;
  numbering: ListLevel | null;
  /** w:outlineLvl of the paragraph itself. */
  outlineLevel: number | undefined;
}

/** A run as the style map sees it (direct formatting only: mammoth ignores styles' formatting). */
interface RunFacts {
  styleId: string | null;
  styleName: string | null;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  verticalAlign: string | undefined;
}

/** Decides the paths of paragraphs and runs for one document. */
export class DocxStyleMap {
  private readonly listPaths = new Map<string, Path>();
  private readonly runPaths = new Map<string, Path>();
  // Our style map's rules by style id apply when styles.xml defines the id, or when there is no
  // styles.xml at all (see styleMapFor).
  private readonly titleById: boolean;
  private readonly emphasisById: boolean;
  private readonly strongById: boolean;

  constructor(private readonly styles: DocxStyles) {
    const defined = (id: string) => !styles.hasStylesPart || styles.definedIds.has(id);
    this.titleById = defined('Title');
    this.emphasisById = defined('Emphasis');
    this.strongById = defined('Strong');
  }

  paragraphPath(paragraph: ParagraphFacts): Path {
    const { styleId } = paragraph;
    const name = paragraph.styleName?.toUpperCase() ?? null;
    if (name === 'TITLE' || (styleId === 'Title' && this.titleById)) return TITLE;
    if (name === 'SUBTITLE') return P;
    if (name !== null && QUOTE_STYLES.has(name)) return QUOTE;
    const headingName = HEADING_NAME.exec(name ?? '');
    const heading = HEADING_ID.exec(styleId ?? '')?.[1] ?? headingName?.[1];
    if (heading !== undefined && heading <= '6') return HEADINGS[Number(heading) - 1] as Path;
    if (styleId === 'Heading' || name === 'HEADING') return HEADINGS[0] as Path;
    // Unlike mammoth, "heading 7" to "heading 9" are headings too (mammoth stops at 6).
    if (headingName) return HEADINGS[5] as Path;
    // Unlike mammoth, an outline level makes a heading: Word's "Level 1" on a paragraph, or a
    // style of the writer's own ("Chapter") based on Heading 1. Level 9 is Word's "body text".
    const outline = paragraph.outlineLevel ?? this.styles.outlineLevel(styleId);
    if (outline !== undefined && outline >= 0 && outline <= 8) {
      return HEADINGS[Math.min(outline, 5)] as Path;
    }
    if (name !== null && PLAIN_STYLES.has(name)) return P;
    const list = paragraph.numbering;
    if (list !== null) {
      const level = Number(list.level);
      // mammoth compares the level with ==, so " 1" is level 1 too.
      if (Number.isInteger(level) && level >= 0 && level < LIST_LEVELS) {
        return this.listPath(level, list.isOrdered);
      }
    }
    return P;
  }

  runPath(run: RunFacts): Path {
    const key = `${run.styleId}\u0000${run.styleName}\u0000${run.bold}${run.italic}${run.strike}${run.verticalAlign}`;
    let path = this.runPaths.get(key);
    if (path === undefined) {
      // Outermost first: the character style's elements, then bold, italics, raised or lowered
      // text and strikethrough (which the normaliser unwraps, but which keeps runs apart).
      path = [
        ...this.characterStylePath(run.styleId, run.styleName),
        ...(run.bold ? [STRONG] : []),
        ...(run.italic ? [EM] : []),
        ...(run.verticalAlign === 'superscript' ? [SUPERSCRIPT] : []),
        ...(run.verticalAlign === 'subscript' ? [SUBSCRIPT] : []),
        ...(run.strike ? [STRIKETHROUGH] : []),
      ];
      this.runPaths.set(key, path);
    }
    return path;
  }

  private characterStylePath(styleId: string | null, styleName: string | null): HtmlTag[] {
    switch (styleName?.toUpperCase()) {
      case 'EMPHASIS':
      case 'SUBTLE EMPHASIS':
      case 'BOOK TITLE':
        return [EM];
      case 'INTENSE EMPHASIS':
        return [STRONG, EM];
      case 'STRONG':
      case 'STRONG EMPHASIS':
        return [STRONG];
    }
    if (styleId === 'Emphasis' && this.emphasisById) return [EM];
    if (styleId === 'Strong' && this.strongById) return [STRONG];
    return [];
  }

  /** mammoth's "p:ordered-list(2) => ul|ol > li > ol > li:fresh" and its kin. */
  private listPath(level: number, ordered: boolean): Path {
    const key = `${level}${ordered}`;
    let path = this.listPaths.get(key);
    if (path === undefined) {
      const outer: HtmlTag[] = [];
      for (let i = 0; i < level; i += 1) {
        outer.push(tag('ul', {}, false, ['ul', 'ol']), tag('li', {}, false));
      }
      path = [...outer, tag(ordered ? 'ol' : 'ul', {}, false), tag('li')];
      this.listPaths.set(key, path);
    }
    return path;
  }
}
