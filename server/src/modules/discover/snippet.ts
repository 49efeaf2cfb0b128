import type { z } from 'zod';
import type { snippetPart } from '@margins/common';

/** Marks ts_headline puts around matched words: control characters no stored text holds. */
export const SNIPPET_START = '\u0002';
export const SNIPPET_STOP = '\u0003';

/**
 * ts_headline's text → parts with the matched words marked, so the client renders text
 * nodes (never HTML) and highlights the matches.
 */
export function parseSnippet(headline: string | null): Array<z.infer<typeof snippetPart>> {
  if (!headline) return [];
  const parts: Array<z.infer<typeof snippetPart>> = [];
  for (const [index, piece] of headline.split(SNIPPET_START).entries()) {
    if (index === 0) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    const [matched = '', rest = ''] = piece.split(SNIPPET_STOP);
    if (matched) parts.push({ text: matched, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}
