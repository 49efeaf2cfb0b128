import chardet from 'chardet';
import iconv from 'iconv-lite';
import { MESSAGES } from '@margins/common';
import { scoreDecoding, type DecodingScore } from './encoding-score.ts';
import { ConversionError } from './errors.ts';

type TextEncodingName =
  'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'windows-1252' | 'ISO-8859-1' | (string & {});

interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

const SAMPLE_BYTES = 64 * 1024;
// Enough text to tell code pages apart; scoring every candidate on more only costs time.
const SCORING_SAMPLE_BYTES = 16 * 1024;

/**
 * A legacy encoding we may read a file in: its name (as reported) and its label, for iconv-lite
 * (single-byte: Node's TextDecoder reads windows-1252 as Latin-1) or TextDecoder (multi-byte).
 */
interface Candidate {
  name: TextEncodingName;
  label: string;
  multiByte?: boolean;
}

// In order of preference when two decodings are equally good (they then agree on the text, as
// windows-1252 and windows-1250 do on German). Western first: it is the most common.
const CANDIDATES: Candidate[] = [
  { name: 'windows-1252', label: 'windows-1252' },
  { name: 'windows-1250', label: 'windows-1250' },
  { name: 'ISO-8859-2', label: 'iso-8859-2' },
  { name: 'windows-1254', label: 'windows-1254' },
  { name: 'windows-1257', label: 'windows-1257' },
  { name: 'windows-1251', label: 'windows-1251' },
  { name: 'KOI8-R', label: 'koi8-r' },
  { name: 'KOI8-U', label: 'koi8-u' },
  { name: 'ISO-8859-5', label: 'iso-8859-5' },
  { name: 'IBM866', label: 'cp866' },
  { name: 'IBM855', label: 'cp855' },
  { name: 'x-mac-cyrillic', label: 'maccyrillic' },
  { name: 'windows-1253', label: 'windows-1253' },
  { name: 'ISO-8859-7', label: 'iso-8859-7' },
  { name: 'windows-1255', label: 'windows-1255' },
  { name: 'ISO-8859-8', label: 'iso-8859-8' },
  { name: 'windows-1256', label: 'windows-1256' },
  { name: 'ISO-8859-6', label: 'iso-8859-6' },
  { name: 'windows-874', label: 'cp874' },
  { name: 'Shift_JIS', label: 'shift_jis', multiByte: true },
  { name: 'EUC-JP', label: 'euc-jp', multiByte: true },
  { name: 'EUC-KR', label: 'euc-kr', multiByte: true },
  { name: 'GB18030', label: 'gb18030', multiByte: true },
  { name: 'Big5', label: 'big5', multiByte: true },
  { name: 'UTF-16LE', label: 'utf-16le', multiByte: true },
  { name: 'UTF-16BE', label: 'utf-16be', multiByte: true },
];

// A decoding where more than this share of the characters outside ASCII are what wrong
// decodings produce is not text we can read...
const MAX_SUSPICIOUS_SHARE = 0.2;
// ...unless those characters are so few in the whole text that they cannot garble it.
const MIN_NON_ASCII_SHARE = 0.01;
// ...or so few at all that a reader would take them for typing errors.
const MIN_SUSPICIOUS = 5;
// chardet's confidence in a CJK encoding below which its common characters are too rare for
// text: then even a few suspicious characters mean noise.
const MIN_CJK_CONFIDENCE = 50;
// What chardet's full confidence in a CJK reading adds per character: kanji read in the wrong
// CJK encoding are still Chinese characters, so only their frequency tells the readings apart.
const CJK_BONUS = 3;

/** Guesses how the bytes of a text file are encoded: BOM, UTF-16 shape, UTF-8, declared, then the best-scoring legacy decoding. */
export function detectTextEncoding(bytes: Uint8Array, declared?: string | null): TextEncodingName {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'UTF-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';

  const utf16 = guessBomlessUtf16(bytes);
  if (utf16 !== null) return utf16;
  // Seven-bit Japanese (mail, old text files): ASCII, so valid UTF-8, but shifted by escapes.
  if (isIso2022Jp(bytes.subarray(0, SAMPLE_BYTES))) return 'ISO-2022-JP';
  if (isValidUtf8(bytes)) return 'UTF-8';
  if (declared && iconv.encodingExists(declared) && !/^utf-?8$/i.test(declared)) return declared;
  return bestLegacyEncoding(bytes.subarray(0, SCORING_SAMPLE_BYTES));
}

/**
 * Decodes the sample with every candidate and keeps the most plausible text (encoding-score.ts).
 * chardet's frequency analysis of CJK characters adds to the multi-byte candidates' scores, which
 * letters alone cannot tell apart (EUC-JP kanji read as GB18030 are still Chinese characters).
 */
function bestLegacyEncoding(sample: Uint8Array): TextEncodingName {
  const utf16 = utf16Shape(sample, false);
  const scored: Array<{ candidate: Candidate; score: DecodingScore }> = [];
  let bestSingleByte = -Infinity;
  for (const candidate of CANDIDATES) {
    if (candidate.name.startsWith('UTF-16') && candidate.name !== utf16) continue;
    const score = scoreDecoding(decodeAs(candidate, sample));
    scored.push({ candidate, score });
    if (!candidate.multiByte) bestSingleByte = Math.max(bestSingleByte, score.score);
  }
  // chardet takes longer than all the scoring: only asked when a CJK reading could win.
  const cjkInReach = scored.some(
    ({ candidate, score }) =>
      isCjk(candidate) && score.score + CJK_BONUS * score.nonAscii > bestSingleByte,
  );
  const confidence = new Map<string, number>(
    cjkInReach ? chardet.analyse(sample).map((match) => [match.name, match.confidence]) : [],
  );
  let best: { candidate: Candidate; total: number; score: DecodingScore } | null = null;
  for (const { candidate, score } of scored) {
    const cjkConfidence = isCjk(candidate) ? (confidence.get(candidate.name) ?? 0) : 0;
    // A CJK reading chardet hardly believes in gets nothing (a "£" read as Shift_JIS "｣").
    // ...and one that leaves odd characters gets less: chardet counts common characters, not
    // the symbols and stray kana that Thai or Cyrillic read as Big5 also yield.
    const clean = Math.max(0, 1 - 4 * (score.suspicious / Math.max(1, score.nonAscii)));
    const bonus =
      cjkConfidence >= MIN_CJK_CONFIDENCE
        ? (score.nonAscii * CJK_BONUS * clean * cjkConfidence) / 100
        : 0;
    const total = score.score + bonus;
    if (best === null || total > best.total) best = { candidate, total, score };
  }
  const { candidate, score } = best!;
  // Any two high bytes are some Chinese character in GB18030: only the frequency of the
  // characters (chardet's analysis) tells CJK text from noise.
  const unconfirmedCjk =
    isCjk(candidate) && (confidence.get(candidate.name) ?? 0) < MIN_CJK_CONFIDENCE;
  const suspiciousShare = score.suspicious / Math.max(1, score.nonAscii);
  const garbled =
    score.suspicious >= MIN_SUSPICIOUS &&
    (suspiciousShare > MAX_SUSPICIOUS_SHARE ||
      (unconfirmedCjk && suspiciousShare > MAX_SUSPICIOUS_SHARE / 4));
  if (garbled && score.nonAscii > sample.length * MIN_NON_ASCII_SHARE) {
    throw new ConversionError('unsupported_format', MESSAGES.textEncodingUnknown);
  }
  // Bytes 0x80–0x9F are C1 controls in Latin-1 and never appear in real Latin-1 text: without
  // them the text is as much Latin-1 as windows-1252, and is called so.
  if (candidate.name === 'windows-1252' && !hasC1Bytes(sample)) return 'ISO-8859-1';
  return candidate.name;
}

function isCjk(candidate: Candidate): boolean {
  return candidate.multiByte === true && !candidate.name.startsWith('UTF-16');
}

/** The charset an HTML file declares in a `<meta>` of its first 2 KB, or null. */
export function declaredHtmlCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString(
    'latin1',
  );
  const match = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head);
  return match?.[1] ?? null;
}

/**
 * Refuses text (TXT, Markdown, HTML) whose encoding cannot be told, as its converter would, so
 * that an upload is refused at once with the message instead of failing later as a job. Only
 * a sample is scored, as in the conversion: milliseconds on the request's thread.
 */
export function assertDecodableText(format: string, bytes: Uint8Array): void {
  if (format === 'txt' || format === 'md') detectTextEncoding(bytes);
  else if (format === 'html') detectTextEncoding(bytes, declaredHtmlCharset(bytes));
}

/** Decodes a text file to a string with `\n` line ends and no control characters. */
export function decodeText(bytes: Uint8Array, declared?: string | null): DecodedText {
  const encoding = detectTextEncoding(bytes, declared);
  const raw = decodeWith(bytes, encoding);
  return { text: cleanText(raw), encoding };
}

function decodeWith(bytes: Uint8Array, encoding: TextEncodingName): string {
  if (encoding === 'ISO-2022-JP') return new TextDecoder('iso-2022-jp').decode(bytes);
  const candidate = CANDIDATES.find((known) => known.name === encoding);
  // The same decoder as the one that was scored (TextDecoder strips a BOM, as iconv-lite does).
  if (candidate !== undefined) return decodeAs(candidate, bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // ISO-8859-1 must map 0x80–0x9F to C1 (TextDecoder would read windows-1252); declared
  // charsets are whatever a page says, which iconv-lite knows more of.
  return iconv.decode(buffer, encoding);
}

function decodeAs(candidate: Candidate, bytes: Uint8Array): string {
  if (candidate.multiByte) return new TextDecoder(candidate.label).decode(bytes);
  return iconv.decode(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    candidate.label,
  );
}

function cleanText(text: string): string {
  /* eslint-disable no-control-regex -- control characters are what is being removed */
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .replace(/\u000b/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufeff]/g, '');
  /* eslint-enable no-control-regex */
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function hasC1Bytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte >= 0x80 && byte <= 0x9f) return true;
  return false;
}

// Text in UTF-16 without a BOM shows up as NUL bytes in one of the two positions of most pairs
// (for Latin scripts), or, for other scripts, as NULs (spaces, line ends) mostly in one position
// while that position varies far less than the other (utf16Shape).
function guessBomlessUtf16(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  const length = Math.min(bytes.length, SAMPLE_BYTES) & ~1;
  if (length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZeros += 1;
    if (bytes[i + 1] === 0) oddZeros += 1;
  }
  const pairs = length / 2;
  if (oddZeros > pairs * 0.3 && evenZeros < pairs * 0.05) return 'UTF-16LE';
  if (evenZeros > pairs * 0.3 && oddZeros < pairs * 0.05) return 'UTF-16BE';
  const shape = utf16Shape(bytes.subarray(0, length));
  // A few low bytes are NUL too (U+3000, U+4E00 "一"), but no more than the high ones.
  if (shape === 'UTF-16LE' && oddZeros > 0 && evenZeros <= oddZeros) return 'UTF-16LE';
  if (shape === 'UTF-16BE' && evenZeros > 0 && oddZeros <= evenZeros) return 'UTF-16BE';
  return null;
}

/**
 * The byte order UTF-16 text without NULs (Cyrillic, CJK…) would have: the high bytes of its
 * code units repeat a few values (one script's block), so one byte position of each pair varies
 * far less than the other. In a single-byte or multi-byte legacy encoding both vary alike.
 */
function utf16Shape(sample: Uint8Array, strict = true): 'UTF-16LE' | 'UTF-16BE' | null {
  const length = sample.length & ~1;
  if (length < 64) return null;
  const even = new Array<number>(256).fill(0);
  const odd = new Array<number>(256).fill(0);
  for (let i = 0; i < length; i += 2) {
    even[sample[i]!]! += 1;
    odd[sample[i + 1]!]! += 1;
  }
  const evenEntropy = entropy(even, length / 2);
  const oddEntropy = entropy(odd, length / 2);
  // Strict: clear enough to decide on (with NULs in the right place). Lenient: worth scoring
  // (Chinese spreads its high bytes over 80 values, which a short sample hardly tells apart).
  const margin = strict ? 1 : 0.08 * Math.max(evenEntropy, oddEntropy);
  if (oddEntropy < evenEntropy - margin) return 'UTF-16LE';
  if (evenEntropy < oddEntropy - margin) return 'UTF-16BE';
  return null;
}

function entropy(counts: number[], total: number): number {
  let bits = 0;
  for (const count of counts) if (count > 0) bits -= (count / total) * Math.log2(count / total);
  return bits;
}

// The escapes that switch ISO-2022-JP to JIS X 0208 (ESC $ @, ESC $ B) or JIS X 0212 (ESC $ ( D).
// eslint-disable-next-line no-control-regex -- ESC is what the escapes are made of
const ISO_2022_JP_ESCAPE = /\x1b\$(?:[@B]|\(D)/;

function isIso2022Jp(sample: Uint8Array): boolean {
  if (!sample.includes(0x1b) || sample.some((byte) => byte >= 0x80)) return false;
  return ISO_2022_JP_ESCAPE.test(
    Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength).toString('latin1'),
  );
}

/** Whether the bytes read as text rather than binary data (used to refuse binaries posing as text). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return true;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return true;
  if (guessBomlessUtf16(bytes) !== null) return true;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  // CJK in UTF-16 has control-range bytes (U+3001 is 01 30) and few NULs: the scoring decides.
  if (utf16Shape(sample, false) !== null || isIso2022Jp(sample)) return true;
  let suspicious = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    const isControl =
      byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c;
    if (isControl || byte === 0x7f) suspicious += 1;
  }
  // Anything else decodes as some single-byte text (windows-1252 at worst): NULs and control
  // characters are what give binary data away.
  return suspicious <= sample.length * 0.01;
}
