// A word is a run of letters, digits and combining marks, joined by an inner apostrophe or
// hyphen ("don't", "well-known"). Scanned by hand: a Unicode regex is several times slower on a book.
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const JOINERS = new Set([0x27, 0x2019, 0x2d, 0x2010]);

// Per BMP code point: 0 = not yet known, 1 = starts or continues a word, 2 = only continues (mark), 3 = neither.
const classes = new Uint8Array(0x10000);

function classify(character: string): number {
  if (LETTER_OR_DIGIT.test(character)) return 1;
  return MARK.test(character) ? 2 : 3;
}

function classOf(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
      ? 1
      : 3;
  }
  if (code >= 0xd800 && code <= 0xdbff)
    return classify(String.fromCodePoint(text.codePointAt(index) ?? 0));
  if (code >= 0xdc00 && code <= 0xdfff) return 2; // second half of a pair: goes with the first
  let known = classes[code] as number;
  if (known === 0) {
    known = classify(String.fromCharCode(code));
    classes[code] = known;
  }
  return known;
}

/** Counts the words of a text the way the word limit counts them. */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const kind = classOf(text, i);
    if (kind === 1) {
      if (!inWord) count += 1;
      inWord = true;
    } else if (kind === 2 && inWord) {
      // a combining mark or a low surrogate continues the word
    } else if (
      inWord &&
      JOINERS.has(text.charCodeAt(i)) &&
      i + 1 < length &&
      classOf(text, i + 1) === 1
    ) {
      // an apostrophe or hyphen between letters keeps the word whole
    } else {
      inWord = false;
    }
  }
  return count;
}
