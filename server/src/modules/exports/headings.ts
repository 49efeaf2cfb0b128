/**
 * The headings of a draft (id → level 1–3), read from its HTML: the normaliser writes every
 * top-level block with an id, so this holds even for a draft stored without a toc.
 */
export function headingLevels(html: string): Map<string, number> {
  const levels = new Map<string, number>();
  for (const match of html.matchAll(/<h([1-3])\b[^>]*?\bid="([^"]+)"/g)) {
    levels.set(match[2]!, Number(match[1]));
  }
  return levels;
}
