// pandoc's ODT reader turns a paragraph in the Title style into a plain paragraph. The title is
// read here from content.xml instead, so that the normaliser can make that paragraph the h1 it is.

const STYLE_TAG = /<style:style\b[^>]*>/g;
const PARAGRAPH_OPEN = /<text:p\b[^>]*\btext:style-name="([^"]+)"[^>]*>/g;

/** The text of the first paragraph in the Title style (or a style derived from it), if any. */
export function findOdtTitle(contentXml: string): string | null {
  const titleStyles = new Set(['Title']);
  for (const [tag] of contentXml.matchAll(STYLE_TAG)) {
    const name = /\bstyle:name="([^"]+)"/.exec(tag)?.[1];
    const parent = /\bstyle:parent-style-name="([^"]+)"/.exec(tag)?.[1];
    if (name && parent && titleStyles.has(parent)) titleStyles.add(name);
  }
  PARAGRAPH_OPEN.lastIndex = 0;
  for (
    let match = PARAGRAPH_OPEN.exec(contentXml);
    match;
    match = PARAGRAPH_OPEN.exec(contentXml)
  ) {
    if (!titleStyles.has(match[1] ?? '')) continue;
    const end = contentXml.indexOf('</text:p>', PARAGRAPH_OPEN.lastIndex);
    if (end < 0) return null;
    const title = xmlText(contentXml.slice(PARAGRAPH_OPEN.lastIndex, end));
    return title === '' ? null : title;
  }
  return null;
}

function xmlText(fragment: string): string {
  return fragment
    .replace(/<text:(?:s|tab|line-break)\b[^>]*\/>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
      const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
      if (name.startsWith('#')) {
        const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return named[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
