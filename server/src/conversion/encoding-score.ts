// How plausible a candidate decoding of a text file is, so that encoding detection can choose
// among code pages by what they produce rather than by a detector's bare confidence: letters
// score, symbols and control characters inside prose cost, a word mixing scripts or with its
// capitals inside costs, and the letters of each script are compared with the letter
// frequencies of the languages written in it (encoding-profiles.ts).
import { LANGUAGE_PROFILES, type LanguageProfile } from './encoding-profiles.ts';

/** What a decoding is worth, and how much of it is what wrong decodings produce. */
export interface DecodingScore {
  /** Higher is more plausible; comparable between decodings of the same bytes. */
  score: number;
  /** Characters outside ASCII. */
  nonAscii: number;
  /** Characters that only a wrong decoding (or damaged text) produces: controls, symbols in words, mixed scripts. */
  suspicious: number;
}

type Script =
  | 'Latin'
  | 'Cyrillic'
  | 'Greek'
  | 'Hebrew'
  | 'Arabic'
  | 'Thai'
  | 'Han'
  | 'Kana'
  | 'Hangul'
  | 'Other';

type CharClass =
  | {
      kind: 'letter';
      script: Script;
      /** One bit per script, to collect a word's scripts cheaply. */
      scriptBit: number;
      lower: string;
      isUpper: boolean;
      isLower: boolean;
      rare: boolean;
      profiled: boolean;
      /** Index into the letter counts of a scoring run (profiled scripts only, else -1). */
      id: number;
    }
  | { kind: 'mark' | 'punctuation' | 'symbol' | 'bad' | 'space' };

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const BAD = /[\p{Cc}\p{Co}\p{Cn}\p{Cs}\ufffd]/u;
const SPACE = /\p{Zs}/u;
// Punctuation that real text outside ASCII uses: typographic quotes and dashes, currency, the
// punctuation of CJK, Hebrew and Arabic, fullwidth forms. (Not the halfwidth forms of old
// Shift_JIS, nor the Hebrew geresh: what a wrong code page makes of "£" and "×".)
const COMMON_PUNCTUATION =
  /[\u00a0\u00ab\u00bb\u00a7\u00b0\u00a9\u00ae\u00a1\u00bf\u00b7\u2013\u2014\u2018-\u201e\u2022\u2026\u2039\u203a\u20ac\u00a3\u00a5\u2122\u3000-\u303f\u30fb\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\u05be\u060c\u061b\u061f\u066a-\u066d\u0387]/u;
// Letters that turn up far more often in wrong decodings than in prose: CJK extension A,
// compatibility jamo, halfwidth katakana, Yi, letters of scripts no legacy code page here covers.
const RARE_LETTER = /[\u3400-\u4dbf\u3130-\u318f\uff61-\uff9f\ua000-\ua4cf]/u;
const SCRIPTS: Array<[Script, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u],
  ['Hangul', /\p{Script=Hangul}/u],
];
const SCRIPT_BITS = new Map<Script, number>(
  [...SCRIPTS.map(([script]) => script), 'Other' as const].map((script, i) => [script, 1 << i]),
);
const LATIN_BIT = SCRIPT_BITS.get('Latin')!;
const HAN_BIT = SCRIPT_BITS.get('Han')!;
// Scripts that share words: Japanese mixes kanji and kana, Korean hangul and hanja, and CJK
// text runs Latin words into its own ("XML文件", "iPhone用") for want of spaces.
const CJK_GROUPS = [
  HAN_BIT | SCRIPT_BITS.get('Kana')! | LATIN_BIT,
  HAN_BIT | SCRIPT_BITS.get('Hangul')! | LATIN_BIT,
];
// The share of letters with diacritics above which a Latin word is not one ("été" is 2/3).
const MAX_ACCENTED_SHARE = 0.7;
const PROFILED = new Set<Script>(['Latin', 'Cyrillic', 'Greek', 'Hebrew', 'Arabic']);

const bmpClasses: Array<CharClass | undefined> = new Array(0x10000);
// Letters of the profiled scripts met so far (all of them together are fewer than 3,000).
let profiledLetters = 0;
const MAX_NEW_PROFILED_LETTERS = 4096;
const astralClasses = new Map<number, CharClass>();
const MAX_ASTRAL_CLASSES = 4096;

function classify(code: number): CharClass {
  const cached = code < 0x10000 ? bmpClasses[code] : astralClasses.get(code);
  if (cached !== undefined) return cached;
  const char = String.fromCodePoint(code);
  // Random bytes read as UTF-16 reach any of a million code points: the cache stays bounded,
  // and letters it cannot keep are not counted by language (their ids would never end).
  const cacheable = code < 0x10000 || astralClasses.size < MAX_ASTRAL_CLASSES;
  const profiled = (script: Script) => cacheable && PROFILED.has(script);
  let found: CharClass;
  if (BAD.test(char)) found = { kind: 'bad' };
  else if (LETTER.test(char)) {
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other';
    found = {
      kind: 'letter',
      script,
      scriptBit: SCRIPT_BITS.get(script)!,
      lower: char.toLowerCase(),
      isUpper: UPPER.test(char),
      isLower: LOWER.test(char),
      rare: script === 'Other' || RARE_LETTER.test(char),
      profiled: profiled(script),
      id: profiled(script) ? profiledLetters++ : -1,
    };
  } else if (MARK.test(char)) found = { kind: 'mark' };
  else if (COMMON_PUNCTUATION.test(char)) found = { kind: 'punctuation' };
  else if (SPACE.test(char)) found = { kind: 'space' };
  else found = { kind: 'symbol' };
  if (code < 0x10000) bmpClasses[code] = found;
  else if (cacheable) astralClasses.set(code, found);
  return found;
}

/** Scores one candidate decoding (of a sample: a few kB say enough). */
export function scoreDecoding(text: string): DecodingScore {
  let score = 0;
  let nonAscii = 0;
  let suspicious = 0;
  // Counts by letter class id, and the ids seen (typed-array counting is what keeps this fast).
  const letterCounts = new Uint32Array(profiledLetters + MAX_NEW_PROFILED_LETTERS);
  const lettersSeen: Array<CharClass & { kind: 'letter' }> = [];
  // The word being read: its scripts, its letters outside ASCII, capitals after small letters.
  let wordScripts = 0;
  let wordNonAscii = 0;
  let previousLower = false;
  let previousLetter = false;
  // Capitals at the start of the current word, to catch "ŤEl" («El» read as ISO-8859-2).
  let leadingCapitals = 0;

  let wordLetters = 0;
  let lastLetter: CharClass | null = null;

  const endWord = () => {
    if (wordNonAscii > 0 && !compatibleScripts(wordScripts)) {
      score -= 3 * wordNonAscii;
      suspicious += wordNonAscii;
    } else if (
      wordScripts === LATIN_BIT &&
      wordLetters >= 3 &&
      wordNonAscii > wordLetters * MAX_ACCENTED_SHARE
    ) {
      // "çãùåú" (Hebrew read as windows-1252): Latin words are mostly plain letters.
      score -= 2 * wordNonAscii;
      suspicious += wordNonAscii;
    } else if (wordLetters === 1 && wordNonAscii === 1 && isOddLoneLetter(lastLetter)) {
      // "£5" read as "Ł5", "¼ cup" as "ľ cup": a Latin letter alone that no language writes alone.
      score -= 3;
      suspicious += 1;
    }
    wordScripts = 0;
    wordNonAscii = 0;
    wordLetters = 0;
    previousLower = false;
    leadingCapitals = 0;
  };
  // A capital after a small letter, or a small letter after two capitals, inside a word.
  const caseShape = (isUpper: boolean, isLower: boolean) => {
    if (isUpper && previousLower) score -= 1.5;
    if (isLower && leadingCapitals >= 2) score -= 1.5;
    leadingCapitals = isUpper && leadingCapitals >= 0 ? leadingCapitals + 1 : -1;
    previousLower = isLower;
  };

  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      const isLetter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
      if (isLetter) {
        wordScripts |= LATIN_BIT;
        wordLetters += 1;
        const isUpper = code <= 0x5a;
        caseShape(isUpper, !isUpper);
        previousLetter = true;
        continue;
      }
      if (wordScripts !== 0) endWord();
      previousLetter = false;
      // Control characters other than the usual white space: a wrong decoding of UTF-16, or binary.
      if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) {
        score -= 6;
        suspicious += 1;
      }
      continue;
    }
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      }
    }
    nonAscii += 1;
    const charClass = classify(code);
    if (charClass.kind === 'letter') {
      wordScripts |= charClass.scriptBit;
      wordNonAscii += 1;
      wordLetters += 1;
      lastLetter = charClass;
      caseShape(charClass.isUpper, charClass.isLower);
      previousLetter = true;
      if (charClass.rare) {
        score -= 1;
        suspicious += 1;
      } else score += 1;
      if (charClass.profiled) {
        if (letterCounts[charClass.id] === 0) lettersSeen.push(charClass);
        letterCounts[charClass.id] = letterCounts[charClass.id]! + 1;
      }
      continue;
    }
    if (charClass.kind === 'mark') {
      // Points and diacritics belong after a letter (Hebrew and Arabic vowels, combining accents).
      score += previousLetter ? 0.5 : -2;
      continue;
    }
    const afterLetter = previousLetter;
    endWord();
    previousLetter = false;
    if (charClass.kind === 'punctuation') score += 0.5;
    else if (charClass.kind === 'bad') {
      score -= 6;
      suspicious += 1;
    } else if (afterLetter || isLetterAt(text, i + 1)) {
      // A symbol inside a word ("wi³cej", "Ïðèâåò") is what a wrong code page makes.
      score -= 3;
      suspicious += 1;
    } else {
      // A symbol on its own ("½ cup", "5 °C", "© 2020") is ordinary, if less so than a letter.
      score -= 0.25;
    }
  }
  endWord();

  // Letters by script, upper and lower case together.
  const byScript = new Map<Script, Map<string, number>>();
  for (const charClass of lettersSeen) {
    const count = letterCounts[charClass.id]!;
    let counts = byScript.get(charClass.script);
    if (counts === undefined) byScript.set(charClass.script, (counts = new Map()));
    counts.set(charClass.lower, (counts.get(charClass.lower) ?? 0) + count);
  }
  for (const [script, counts] of byScript) {
    let total = 0;
    for (const count of counts.values()) total += count;
    const { fit, covered } = bestLanguageFit(script, counts);
    // Letters no single language of the script uses together ("mańana" beside "río") cost.
    score += total * (3 * fit - 1) - 2 * (total - covered);
  }
  return { score, nonAscii, suspicious };
}

// Latin letters outside ASCII that are words by themselves (French "à", Portuguese "é", Danish "ø"…).
const LONE_LETTERS = new Set(['à', 'è', 'é', 'ò', 'ó', 'ù', 'å', 'ø']);

// A Thai letter alone is as odd: Thai runs its words together ("£" read as windows-874 "ฃ").
function isOddLoneLetter(letter: CharClass | null): boolean {
  if (letter?.kind !== 'letter') return false;
  return letter.script === 'Thai' || (letter.script === 'Latin' && !LONE_LETTERS.has(letter.lower));
}

function isLetterAt(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.codePointAt(index)!;
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return classify(code).kind === 'letter';
}

/** Whether a word's scripts (one bit each) may stand together in one word. */
function compatibleScripts(mask: number): boolean {
  if ((mask & (mask - 1)) === 0) return true;
  return CJK_GROUPS.some((group) => (mask & group) === mask);
}

/**
 * How well the letters seen match the closest language of their script: the cosine between
 * the two letter distributions, rescaled so that letters drawn evenly from the script's alphabet
 * (what a wrong code page gives) score 0 and the language's own distribution 1; and how many of
 * the letters the language that knows most of them knows.
 */
function bestLanguageFit(
  script: Script,
  counts: Map<string, number>,
): { fit: number; covered: number } {
  let best = -1;
  let covered = 0;
  let seenNorm = 0;
  for (const count of counts.values()) seenNorm += count * count;
  seenNorm = Math.sqrt(seenNorm);
  for (const profile of LANGUAGE_PROFILES) {
    if (profile.script !== script) continue;
    const { norm, evenCosine } = profileShapes.get(profile)!;
    let dot = 0;
    let known = 0;
    for (const [letter, count] of counts) {
      const weight = profile.letters[letter] ?? 0;
      dot += count * weight;
      if (weight > 0) known += count;
    }
    best = Math.max(best, (dot / (seenNorm * norm) - evenCosine) / (1 - evenCosine));
    covered = Math.max(covered, known);
  }
  return { fit: best, covered };
}

// Each profile's length, and its cosine with an even spread over its script's alphabet (the
// letters all profiles of that script name).
const profileShapes = new Map<LanguageProfile, { norm: number; evenCosine: number }>(
  LANGUAGE_PROFILES.map((profile) => {
    const alphabet = new Set<string>();
    for (const other of LANGUAGE_PROFILES) {
      if (other.script === profile.script) for (const letter in other.letters) alphabet.add(letter);
    }
    const weights = Object.values(profile.letters);
    const norm = Math.sqrt(weights.reduce((sum, weight) => sum + weight * weight, 0));
    const sum = weights.reduce((total, weight) => total + weight, 0);
    return [profile, { norm, evenCosine: sum / (Math.sqrt(alphabet.size) * norm) }];
  }),
);
