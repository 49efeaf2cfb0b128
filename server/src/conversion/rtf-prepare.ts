// pandoc's RTF reader misses a few things word processors write. Small, local rewrites of the RTF
// source fix them before pandoc reads it:
// - LibreOffice writes footnotes as the ignorable destination `{\*\footnote …}`, which pandoc
//   skips; `{\footnote …}` is the same thing as Word writes it.
// - Headings that take part in outline numbering carry `\lsN` and a `{\listtext …}` group whose
//   `\pard` wipes the outline level: pandoc then makes each heading a bullet list item.
// - A heading style whose paragraphs lack `\outlinelevel`, and the Title style, get one, so that
//   they become headings (the title an h1).

const STYLESHEET_ENTRY = /\{\\s(\d+)(?![a-z\d])([^{}]*);\}/g;
const PARAGRAPH_PROPERTIES = /\\pard(?![a-z])[^{}]*/g;

/** Rewrites RTF source (read as latin1, so bytes survive) for pandoc; see the notes above. */
export function prepareRtfForPandoc(source: string): string {
  const outlineLevelByStyle = readOutlineLevels(source);
  return source
    .replace(/\{\\\*\\footnote(?![a-z])/g, '{\\footnote')
    .replace(/\{\\listtext(?![a-z])[^{}]*\}/g, '')
    .replace(PARAGRAPH_PROPERTIES, (properties) => {
      let result = properties;
      const style = /\\s(\d+)(?![a-z\d])/.exec(result)?.[1];
      const styleLevel = style === undefined ? undefined : outlineLevelByStyle.get(style);
      if (!/\\outlinelevel\d/.test(result) && styleLevel !== undefined) {
        result = result.replace(/^\\pard/, `\\pard\\outlinelevel${styleLevel}`);
      }
      if (/\\outlinelevel\d/.test(result)) result = result.replace(/\\(?:ls|ilvl)\d+ ?/g, '');
      return result;
    });
}

/** Style number → outline level (0-based) for heading styles and the Title style. */
function readOutlineLevels(source: string): Map<string, number> {
  const levels = new Map<string, number>();
  const start = source.indexOf('{\\stylesheet');
  if (start < 0) return levels;
  const end = findGroupEnd(source, start);
  const stylesheet = source.slice(start, end);
  for (const match of stylesheet.matchAll(STYLESHEET_ENTRY)) {
    const [, number, body = ''] = match;
    if (number === undefined) continue;
    // What is left once the control words (and their delimiting space) are gone is the name.
    const name = body.replace(/\\[a-z]+-?\d* ?/gi, '').trim();
    const declared = /\\outlinelevel(\d)/.exec(body)?.[1];
    const heading = /^heading ([1-6])$/i.exec(name)?.[1];
    if (/^title$/i.test(name)) levels.set(number, 0);
    else if (declared !== undefined) levels.set(number, Number(declared));
    else if (heading !== undefined) levels.set(number, Number(heading) - 1);
  }
  return levels;
}

function findGroupEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\\') {
      i += 1; // skip the escaped character (\{ \} \\)
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return source.length;
}
