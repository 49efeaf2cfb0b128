// Text bytes in an RTF file are in the code page of the document (\ansicpgN) or of the current
// font (\fcharsetN, \cpgN in the font table). Most writers also give every non-ASCII character as
// \uN, so these bytes are often only the fallback that \ucN skips.
import iconv from 'iconv-lite';

/** Windows character set (\fcharsetN) → code page; 1 ("default") means the document's. */
const CHARSET_CODE_PAGES: Record<number, number> = {
  0: 1252,
  2: 1252, // Symbol: no real mapping; read as Western rather than lose the text
  77: 10000,
  78: 10001, // Mac Shift_JIS
  79: 10003, // Mac Hangul
  80: 10008, // Mac GB2312
  81: 10002, // Mac Big5
  85: 10006, // Mac Greek
  86: 10081, // Mac Turkish
  87: 10021, // Mac Thai
  88: 10029, // Mac Central European
  89: 10007, // Mac Cyrillic
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
  254: 437,
  255: 850,
};

// Code pages whose characters take more than one byte: their bytes are collected and decoded
// together (DBCS lead and trail bytes, as \'82\'a0 or \'83A; UTF-8 sequences of \cpg65001).
const MULTI_BYTE_ENCODINGS = new Set([
  'cp932',
  'cp936',
  'cp949',
  'cp950',
  'shiftjis',
  'eucjp',
  'gb18030',
  'utf8',
]);
const DEFAULT_CODE_PAGE = 1252;

// Code pages iconv-lite does not know by their number (cpNNNNN): Mac, KOI8, EUC, UTF-8.
// Apple's Mac code pages for CJK are Shift_JIS, Big5, EUC-KR and GB2312 with a few extra symbols.
const CODE_PAGE_ENCODINGS: Record<number, string> = {
  10000: 'macintosh',
  10001: 'shiftjis',
  10002: 'cp950',
  10003: 'cp949',
  10006: 'macgreek',
  10007: 'maccyrillic',
  10008: 'cp936',
  10010: 'macromania',
  10017: 'macukraine',
  10021: 'macthai',
  10029: 'maccenteuro',
  10079: 'maciceland',
  10081: 'macturkish',
  10082: 'maccroatian',
  20866: 'koi8r',
  21866: 'koi8u',
  20932: 'eucjp',
  51932: 'eucjp',
  51936: 'cp936',
  51949: 'cp949',
  54936: 'gb18030',
  65001: 'utf8',
};

/** The code page a font's \fcharsetN stands for, or null for "the document's". */
export function charsetCodePage(charset: number): number | null {
  return CHARSET_CODE_PAGES[charset] ?? null;
}

/** Decodes the bytes of one code page. Single-byte code pages use a 256-entry table. */
export class CodePageDecoder {
  /** Double-byte (or UTF-8): bytes are decoded together once the run of text ends. */
  readonly doubleByte: boolean;
  private readonly table: readonly string[];

  constructor(private readonly encoding: string) {
    this.doubleByte = MULTI_BYTE_ENCODINGS.has(encoding);
    const all = iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), encoding);
    this.table = Array.from({ length: 256 }, (_, byte) =>
      this.doubleByte && byte >= 0x80 ? '' : visible(all[byte] ?? ''),
    );
  }

  /** One byte (of a single-byte code page). */
  decodeByte(byte: number): string {
    return this.table[byte] ?? '';
  }

  /** A run of bytes given as latin1 characters (of a single-byte code page). */
  decodeText(raw: string): string {
    let result = '';
    for (let i = 0; i < raw.length; i += 1) result += this.table[raw.charCodeAt(i)] ?? '';
    return result;
  }

  /** Bytes of any code page, including double-byte ones. */
  decodeBytes(bytes: readonly number[]): string {
    if (!this.doubleByte) return bytes.map((byte) => this.decodeByte(byte)).join('');
    let result = '';
    for (const char of iconv.decode(Buffer.from(bytes), this.encoding)) result += visible(char);
    return result;
  }
}

// Control characters are not text; a tab reads as a space.
function visible(char: string): string {
  if (char === '\t') return ' ';
  const code = char.charCodeAt(0);
  if (code < 0x20 || (code >= 0x7f && code < 0xa0) || char === '\ufffd') return '';
  return char;
}

// Keyed by encoding name, so that made-up code page numbers cannot grow the cache.
const decoders = new Map<string, CodePageDecoder>();

/** The (shared, immutable) decoder of a code page; unknown code pages read as Windows-1252. */
export function decoderFor(codePage: number): CodePageDecoder {
  const name = CODE_PAGE_ENCODINGS[codePage] ?? `cp${codePage}`;
  const encoding = iconv.encodingExists(name) ? name : `cp${DEFAULT_CODE_PAGE}`;
  let decoder = decoders.get(encoding);
  if (decoder === undefined) {
    decoder = new CodePageDecoder(encoding);
    decoders.set(encoding, decoder);
  }
  return decoder;
}
