import type { Element, ElementContent } from 'hast';
import type { FinishedBlocks } from './blocks.ts';
import type { PictureProblem } from './pictures.ts';

/** What a normalised document holds, for the conversion report. */
export interface DocumentContents {
  chapters: number;
  footnotes: number;
  tables: number;
  formulas: number;
  /** Pictures shown as a placeholder, by reason, in the order they stand. */
  missingPictures: readonly PictureProblem[];
}

/** Counts the chapters, notes, tables and formulas of a finished document. */
export function countContents(
  finished: FinishedBlocks,
  footnotes: number,
  found: { formulas: number; missingPictures: readonly PictureProblem[] },
): DocumentContents {
  return {
    chapters: chapterCount(finished),
    footnotes,
    tables: countTables(finished.blocks),
    formulas: found.formulas,
    missingPictures: found.missingPictures,
  };
}

/**
 * Chapters are the headings of the level a document divides itself by: its level-1 headings, or
 * its level-2 headings when the only level-1 heading is the book's title (or there is none).
 */
function chapterCount({ toc }: FinishedBlocks): number {
  const first = toc.filter((entry) => entry.level === 1).length;
  const second = toc.filter((entry) => entry.level === 2).length;
  return first <= 1 && second > 0 ? second : first;
}

function countTables(nodes: readonly ElementContent[]): number {
  let count = 0;
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if ((node as Element).tagName === 'table') count += 1;
    count += countTables(node.children);
  }
  return count;
}
