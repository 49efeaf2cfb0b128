// A word is a run of letters or digits, joined by inner apostrophes or hyphens ("don't", "well-known").
const WORD_PATTERN = /[\p{L}\p{N}]+(?:['’\-‐][\p{L}\p{N}]+)*/gu;

/** Counts the words of a text the way the word limit counts them. */
export function countWords(text: string): number {
  let count = 0;
  WORD_PATTERN.lastIndex = 0;
  while (WORD_PATTERN.exec(text) !== null) count += 1;
  return count;
}
