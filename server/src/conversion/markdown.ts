import MarkdownIt from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { decodeText } from './text-encoding.ts';

// Raw HTML off: tags in the source are shown as text, never passed through.
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).use(
  markdownItFootnote,
);

const FRONT_MATTER = /^---[ \t]*\n([\s\S]{0,8192}?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/** Markdown → normalised HTML. A YAML front-matter block is dropped and its `title:` kept. */
export function convertMarkdown(bytes: Uint8Array): NormalisedDocument {
  let source = decodeText(bytes).text;
  let title: string | null = null;
  const frontMatter = FRONT_MATTER.exec(source);
  if (frontMatter) {
    source = source.slice(frontMatter[0].length);
    const titleLine = /^title:[ \t]*(.+)$/m.exec(frontMatter[1] ?? '');
    title = titleLine?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2') || null;
  }
  return normaliseHtml(markdown.render(source), { title, trustedMarkup: true });
}
