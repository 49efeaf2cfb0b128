import chardet from 'chardet';
import iconv from 'iconv-lite';

export type TextEncodingName =
  'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'windows-1252' | 'ISO-8859-1' | (string & {});

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

const SAMPLE_BYTES = 64 * 1024;

// Single-byte Western text is read as windows-1252 unless chardet is confident about one of these,
// which a Western guess would garble beyond reading.
const TRUSTED_DETECTIONS = new Set([
  'Shift_JIS',
  'EUC-JP',
  'EUC-KR',
  'GB18030',
  'Big5',
  'windows-1251',
  'KOI8-R',
  'ISO-8859-5',
  'windows-1253',
  'ISO-8859-7',
  'windows-1255',
  'ISO-8859-8',
  'windows-1256',
  'ISO-8859-6',
]);

/** Guesses how the bytes of a text file are encoded: BOM, then UTF-16 shape, UTF-8, then single-byte. */
export function detectTextEncoding(bytes: Uint8Array, declared?: string | null): TextEncodingName {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'UTF-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';

  const utf16 = guessBomlessUtf16(bytes);
  if (utf16 !== null) return utf16;
  if (isValidUtf8(bytes)) return 'UTF-8';
  if (declared && iconv.encodingExists(declared) && !/^utf-?8$/i.test(declared)) return declared;

  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const best = chardet.analyse(sample)[0];
  if (best && best.confidence >= 60 && TRUSTED_DETECTIONS.has(best.name)) return best.name;
  // Bytes 0x80–0x9F are C1 controls in Latin-1 and never appear in real Latin-1 text: their
  // presence means windows-1252 (curly quotes, dashes, €). Otherwise both agree byte for byte.
  return hasC1Bytes(bytes) ? 'windows-1252' : 'ISO-8859-1';
}

/** Decodes a text file to a string with `\n` line ends and no control characters. */
export function decodeText(bytes: Uint8Array, declared?: string | null): DecodedText {
  const encoding = detectTextEncoding(bytes, declared);
  const raw = decodeWith(bytes, encoding);
  return { text: cleanText(raw), encoding };
}

function decodeWith(bytes: Uint8Array, encoding: TextEncodingName): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // iconv-lite strips a BOM by default; ISO-8859-1 must map 0x80–0x9F to C1 (TextDecoder would not).
  return iconv.decode(buffer, encoding);
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
// (for Latin scripts) or as a high byte that repeats for one script (for others).
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
  return null;
}

/** Whether the bytes read as text rather than binary data (used to refuse binaries posing as text). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return true;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return true;
  if (guessBomlessUtf16(bytes) !== null) return true;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
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
