import type { Element, ElementContent, Root } from 'hast';
import { isSceneBreakText } from './normalise/blocks.ts';
import { element, text } from './normalise/hast.ts';
import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { decodeText } from './text-encoding.ts';

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|' +
  'sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|' +
  'hundred|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final';
const ROMAN = 'm{0,4}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})';
const NUMBER = `(?:\\d{1,4}|(?=[ivxlcdm])${ROMAN}|(?:${NUMBER_WORDS})(?:[\\s-]+(?:${NUMBER_WORDS}))*)`;
const AFTER_NUMBER = `(?:\\s*[:.\\-–—]\\s*.*|\\s+.*)?`;
const CHAPTER_LINE = new RegExp(`^(?:chapter|chap\\.)\\s+${NUMBER}${AFTER_NUMBER}$`, 'i');
const PART_LINE = new RegExp(`^(?:part|book|volume)\\s+${NUMBER}${AFTER_NUMBER}$`, 'i');
const TITLE_AFTER_NUMBER = `(?:\\s*[:.\\-–—]\\s*[^.!?,;]*)?`;
const STRICT_CHAPTER_LINE = new RegExp(
  `^(?:chapter|chap\\.)\\s+${NUMBER}${TITLE_AFTER_NUMBER}$`,
  'i',
);
const STRICT_PART_LINE = new RegExp(
  `^(?:part|book|volume)\\s+${NUMBER}${TITLE_AFTER_NUMBER}$`,
  'i',
);
const SECTION_LINE =
  /^(?:prologue|epilogue|preface|foreword|afterword|introduction|interlude|acknowledge?ments|author[’']?s note|dedication)(?:\s*[:.\-–—]\s*.*)?$/i;
const STRICT_SECTION_LINE = new RegExp(
  `^(?:prologue|epilogue|preface|foreword|afterword|introduction|interlude|acknowledge?ments|author[’']?s note|dedication)${TITLE_AFTER_NUMBER}$`,
  'i',
);
const NUMBER_ONLY_LINE = /^\d{1,3}\.?$/;
// "IV." or "XII" alone on a line, as many novels number their chapters.
const ROMAN_ONLY_LINE = new RegExp(`^(?=[IVXLCDM])${ROMAN.toUpperCase()}\\.?$`);
// Scene breaks plain text uses besides those the normaliser knows ("* * *", "#", "~ ~ ~"…).
const TEXT_SCENE_BREAK = /^(?:(?:[_=+]\s*){3,5}|o\s*[O0]\s*o|(?:\*\s*){6,12})$/;
const MAX_HEADING_LENGTH = 80;
const UNWRAPPED_LINE_LENGTH = 160;
const TERMINAL_PUNCTUATION = /[.!?…:"”’»)\]]$/;

type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'break' }
  | { kind: 'paragraph'; lines: string[]; verse: boolean };

/** Plain text → normalised HTML: blank-line paragraphs, chapter-like lines as headings, "* * *" as scene breaks. */
export function convertText(bytes: Uint8Array): NormalisedDocument {
  return normaliseHtml(textToTree(decodeText(bytes).text));
}

/** Splits decoded text into a tree of headings, paragraphs and scene breaks. */
function textToTree(source: string): Root {
  const children: ElementContent[] = [];
  for (const block of splitBlocks(source)) {
    if (block.kind === 'heading') children.push(element(`h${block.level}`, {}, [text(block.text)]));
    else if (block.kind === 'break') children.push(element('hr'));
    else children.push(paragraphElement(block.lines, block.verse));
  }
  return { type: 'root', children };
}

function paragraphElement(lines: string[], verse: boolean): Element {
  if (!verse) return element('p', {}, [text(lines.join(' '))]);
  const content: ElementContent[] = [];
  lines.forEach((line, i) => {
    if (i > 0) content.push(element('br'));
    content.push(text(line));
  });
  return element('p', {}, content);
}

function splitBlocks(source: string): Block[] {
  const lines = source.split('\n').map((line) => line.replace(/\s+$/, ''));
  const wrapWidth = estimateWrapWidth(lines);
  const blocks: Block[] = [];
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length > 0) blocks.push(...chunkBlocks(chunk, wrapWidth));
    chunk = [];
  };
  for (const line of lines) {
    if (line.trim() === '') flush();
    else chunk.push(line);
  }
  flush();
  return blocks;
}

/**
 * The width the text was hard-wrapped at: the 95th percentile of line lengths (a few overlong
 * lines must not widen it), or the longest line of a short text. Lines over 160 characters are unwrapped paragraphs and do not count.
 */
function estimateWrapWidth(lines: string[]): number {
  const lengths = lines
    .map((line) => line.trim().length)
    .filter((length) => length > 0 && length <= UNWRAPPED_LINE_LENGTH)
    .sort((a, b) => a - b);
  // With few lines a percentile means little: take the longest.
  const rank = lengths.length < 40 ? lengths.length - 1 : Math.floor((lengths.length - 1) * 0.95);
  return lengths[rank] ?? 0;
}

function chunkBlocks(lines: string[], wrapWidth: number): Block[] {
  // Without hard wrapping every line is a paragraph of its own, so a line can be a heading alone.
  const linesAreParagraphs = lines.length === 1 || longestLength(lines) > UNWRAPPED_LINE_LENGTH;
  const blocks: Block[] = [];
  let run: string[] = [];
  const flush = () => {
    blocks.push(...paragraphsOf(run, wrapWidth));
    run = [];
  };
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    const sceneBreak = isSceneBreakText(trimmed) || TEXT_SCENE_BREAK.test(trimmed);
    // The first line of a paragraph that goes on is where a heading without a blank line stands.
    const heading = sceneBreak
      ? null
      : headingOf(trimmed, linesAreParagraphs, i === 0 && lines.length > 1);
    if (sceneBreak) {
      flush();
      blocks.push({ kind: 'break' });
    } else if (heading !== null) {
      flush();
      blocks.push(heading);
    } else {
      run.push(line);
    }
  });
  flush();
  return blocks;
}

function headingOf(line: string, alone: boolean, firstOfParagraph = false): Block | null {
  if (line.length > MAX_HEADING_LENGTH || looksLikeSentence(line)) return null;
  // Inside wrapped prose, "Chapter 5" must stand alone or be followed by a separator and a title.
  const partLine = alone ? PART_LINE : STRICT_PART_LINE;
  const chapterLine = alone ? CHAPTER_LINE : STRICT_CHAPTER_LINE;
  if (partLine.test(line)) return { kind: 'heading', level: 2, text: line };
  if (chapterLine.test(line)) return { kind: 'heading', level: 1, text: line };
  if (NUMBER_ONLY_LINE.test(line) || ROMAN_ONLY_LINE.test(line)) {
    return alone || firstOfParagraph ? { kind: 'heading', level: 1, text: line } : null;
  }
  if (firstOfParagraph && STRICT_SECTION_LINE.test(line)) {
    return { kind: 'heading', level: 1, text: line };
  }
  if (!alone) return null;
  if (SECTION_LINE.test(line) || isShortCapsLine(line)) {
    return { kind: 'heading', level: 1, text: line };
  }
  return null;
}

// "Part one of the plan was simple." is prose, "Chapter 1." and "Part Two: Home" are headings.
function looksLikeSentence(line: string): boolean {
  return /[!?,;]$/.test(line) || (line.endsWith('.') && line.split(/\s+/).length > 3);
}

function longestLength(lines: string[]): number {
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, line.trim().length);
  return longest;
}

function isShortCapsLine(line: string): boolean {
  if (line.length > 60 || line.split(/\s+/).length > 8) return false;
  const letters = line.match(/\p{L}/gu) ?? [];
  return letters.length >= 2 && !/\p{Ll}/u.test(line) && !/[.,;]$/.test(line);
}

/**
 * Lines of one blank-line-separated chunk → paragraphs. Long lines mean one paragraph per line.
 * Otherwise a line "ended on purpose" when the next word would still have fitted the wrap width:
 * if every line did, the chunk is verse (kept with line breaks) or, when every line ends a
 * sentence, a run of one-line paragraphs; in wrapped prose a new paragraph starts after a
 * sentence that ended on purpose, or at an indented line.
 */
function paragraphsOf(lines: string[], wrapWidth: number): Block[] {
  if (lines.length === 0) return [];
  const trimmed = lines.map((line) => line.trim());
  if (lines.length === 1 || longestLength(trimmed) > UNWRAPPED_LINE_LENGTH) {
    return trimmed.map((line) => ({ kind: 'paragraph', lines: [line], verse: false }));
  }
  const endsSentence = trimmed.map((line) => TERMINAL_PUNCTUATION.test(line));
  const endedOnPurpose = trimmed.map((line, i) => {
    const nextWord = trimmed[i + 1]?.split(/\s/)[0];
    return nextWord === undefined || line.length + 1 + nextWord.length <= wrapWidth;
  });
  if (endedOnPurpose.every(Boolean)) {
    if (endsSentence.every(Boolean)) {
      return trimmed.map((line) => ({ kind: 'paragraph', lines: [line], verse: false }));
    }
    return [{ kind: 'paragraph', lines: trimmed, verse: true }];
  }

  const indented = lines.map((line) => /^\s/.test(line));
  const someIndented = indented.some(Boolean) && !indented.every(Boolean);
  const paragraphs: Block[] = [];
  let current: string[] = [];
  trimmed.forEach((line, i) => {
    const startsNew =
      current.length > 0 &&
      ((someIndented && indented[i]) || (endsSentence[i - 1] && endedOnPurpose[i - 1]));
    if (startsNew) {
      paragraphs.push({ kind: 'paragraph', lines: current, verse: false });
      current = [];
    }
    current.push(line);
  });
  if (current.length > 0) paragraphs.push({ kind: 'paragraph', lines: current, verse: false });
  return paragraphs;
}
