import MarkdownIt from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import { ConversionError } from './errors.ts';
import { MAX_MARKUP_NESTING } from './limits.ts';
import { assertMarkdownNesting, assertMarkupNesting, nestingMessage } from './nesting.ts';
import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { decodeText } from './text-encoding.ts';

// Raw HTML on: it goes through the same parser and allow-list as an HTML upload (the rendered
// HTML is not trusted markup). markdown-it stops nesting at maxNesting and silently leaves the
// rest out; a token at that depth makes the file refused instead (see nestingTooDeep).
const markdown = new MarkdownIt({
  html: true,
  linkify: true,
  typographer: false,
  maxNesting: MAX_MARKUP_NESTING,
}).use(markdownItFootnote);

const FRONT_MATTER = /^---[ \t]*\n([\s\S]{0,8192}?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/**
 * Markdown → normalised HTML. A YAML front-matter block is dropped and its `title:` kept;
 * `storePicture` keeps the pictures of `data:` URLs.
 */
export function convertMarkdown(
  bytes: Uint8Array,
  storePicture?: (data: Uint8Array) => string | null,
): NormalisedDocument {
  let source = decodeText(bytes).text;
  let title: string | null = null;
  const frontMatter = FRONT_MATTER.exec(source);
  if (frontMatter) {
    source = source.slice(frontMatter[0].length);
    const titleLine = /^title:[ \t]*(.+)$/m.exec(frontMatter[1] ?? '');
    title = titleLine?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2') || null;
  }
  // Before markdown-it, which takes seconds over 100,000 nested quotes or inline tags.
  assertMarkdownNesting(source);
  assertMarkupNesting(source, 'Markdown');
  const environment = {};
  const tokens = markdown.parse(source, environment);
  if (nestingTooDeep(tokens)) throw new ConversionError('corrupt', nestingMessage('Markdown'));
  const html = markdown.renderer.render(tokens, markdown.options, environment);
  assertMarkupNesting(html, 'Markdown');
  // markdown-it's own markup is well-formed (the fast strict parser reads it); raw HTML may not be.
  return normaliseHtml(html, { title, storePicture, trustedMarkup: !hasRawHtml(tokens) });
}

function hasRawHtml(tokens: readonly Token[]): boolean {
  return tokens.some(
    (token) =>
      token.type === 'html_block' ||
      (token.children?.some((child) => child.type === 'html_inline') ?? false),
  );
}

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/** Whether markdown-it reached its nesting limit (where it stops reading, and content is lost). */
function nestingTooDeep(tokens: readonly Token[]): boolean {
  for (const token of tokens) {
    if (token.level >= MAX_MARKUP_NESTING - 1) return true;
    if (token.children !== null && nestingTooDeep(token.children)) return true;
  }
  return false;
}
