import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parse } from 'parse5';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import type { TocEntry } from '../types.ts';
import { countWords } from '../words.ts';
import { finishBlocks } from './blocks.ts';
import { buildNotesSection, indexFootnotes } from './footnotes.ts';
import { classesOf, collapsedText, text } from './hast.ts';
import { readClassStyles } from './inline-styles.ts';
import { sanitiseDocument, sanitiseNote, type SanitiseContext } from './sanitise.ts';
import type { PictureProblem } from './pictures.ts';
import { countContents, type DocumentContents } from './report.ts';
import { parseStrictHtml } from './strict-parser.ts';

export type { DocumentContents } from './report.ts';

interface NormaliseOptions {
  /** Image `src` as the converter wrote it → public URL. Images not listed are dropped. */
  images?: ReadonlyMap<string, string>;
  /** The HTML comes from one of our converters: try the fast strict parser before parse5. */
  trustedMarkup?: boolean;
  /** The document's own title (metadata), when the converter knows it. */
  title?: string | null;
  /**
   * The text of the document's Title-style paragraph, when the converter's output lost that style:
   * the first top-level paragraph with exactly this text becomes an h1, and the title.
   */
  titleParagraph?: string | null;
  /** Stores the picture of a `data:` URL and gives its public URL (HTML and Markdown uploads). */
  storePicture?: (data: Uint8Array) => string | null;
  /** The title in the document's properties (DOCX/ODT dc:title): after a Title paragraph, before the first h1. */
  propertyTitle?: string | null;
}

export interface NormalisedDocument {
  html: string;
  toc: TocEntry[];
  words: number;
  title: string | null;
  /** The public image URLs the HTML shows (images the converter extracted may have been dropped). */
  imageUrls: ReadonlySet<string>;
  /** What the conversion report counts (see report.ts). */
  contents: DocumentContents;
}

const stringifier = unified().use(rehypeStringify);

/**
 * HTML → hast, as rehype-parse does it (parse5, then hast-util-from-parse5) but without the source
 * positions rehype-parse always asks for: nothing here uses them, and they cost ~40% of the parse.
 */
export function parseHtml(html: string): Root {
  return fromParse5(parse(html, { scriptingEnabled: false }), {}) as Root;
}

/** Parses converter output (or takes a ready tree) and returns the one allow-listed HTML shape. */
export function normaliseHtml(
  input: string | Root,
  options: NormaliseOptions = {},
): NormalisedDocument {
  const root =
    typeof input !== 'string'
      ? input
      : ((options.trustedMarkup ? parseStrictHtml(input) : null) ?? parseHtml(input));
  const title =
    options.title ?? options.titleParagraph ?? findTitle(root) ?? options.propertyTitle ?? null;
  const context: SanitiseContext = {
    footnotes: indexFootnotes(root),
    images: options.images ?? new Map(),
    usedImages: new Set(),
    classStyles: readClassStyles(root),
    storePicture: options.storePicture,
    missingPictures: [] as PictureProblem[],
    formulas: 0,
  };
  const blocks = sanitiseDocument(root, context);
  if (options.titleParagraph) promoteTitleParagraph(blocks, options.titleParagraph);
  const finished = finishBlocks(blocks);
  const notes = context.footnotes.notes.map((note) => sanitiseNote(note, context));

  const children: RootContent[] = [];
  for (const block of finished.blocks) children.push(block, text('\n'));
  let words = finished.words;
  if (notes.length > 0) {
    const section = buildNotesSection(notes);
    words += countWords(collapsedText(section));
    children.push(section, text('\n'));
  }
  const html = stringifier.stringify({ type: 'root', children });
  return {
    html,
    toc: finished.toc,
    words,
    title: title ?? finished.firstHeading1,
    imageUrls: context.usedImages,
    contents: countContents(finished, notes.length, context),
  };
}

function promoteTitleParagraph(blocks: ElementContent[], title: string): void {
  const paragraph = blocks.find(
    (block): block is Element =>
      block.type === 'element' && block.tagName === 'p' && collapsedText(block) === title,
  );
  if (paragraph) paragraph.tagName = 'h1';
}

/** A title the document states: an element marked `title` (Title style), else `<title>`. */
function findTitle(root: Root): string | null {
  let marked: string | null = null;
  let headTitle: string | null = null;
  const walk = (node: Root | Element): boolean => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (headTitle === null && child.tagName === 'title') headTitle = collapsedText(child) || null;
      if (/^(?:h[1-6]|p)$/.test(child.tagName) && classesOf(child).includes('title')) {
        marked = collapsedText(child) || null;
        if (marked !== null) return true;
      }
      if (walk(child)) return true;
    }
    return false;
  };
  walk(root);
  return marked ?? headTitle;
}
