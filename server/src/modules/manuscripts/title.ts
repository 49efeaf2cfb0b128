import { MANUSCRIPT_TITLE_MAX_LENGTH } from '@margins/common';

/**
 * A title the author did not type (the document's own, or the file name) made to fit the limit:
 * whitespace collapsed and, when too long, cut at the last word boundary with an ellipsis, never
 * mid-word. A title the author typed is checked by the form schema instead (400, not cut).
 */
export function fitDerivedTitle(text: string): string {
  const title = text.replace(/\s+/g, ' ').trim();
  if (title.length <= MANUSCRIPT_TITLE_MAX_LENGTH) return title;
  const room = title.slice(0, MANUSCRIPT_TITLE_MAX_LENGTH); // the ellipsis takes the last place
  const lastSpace = room.lastIndexOf(' ');
  // One enormous "word" (a URL, say) has no boundary to cut at: then it is cut where it must be.
  const cut =
    lastSpace > MANUSCRIPT_TITLE_MAX_LENGTH / 2 ? room.slice(0, lastSpace) : room.slice(0, -1);
  return `${cut.replace(/[\s,;:.\-–—]+$/u, '')}…`;
}
