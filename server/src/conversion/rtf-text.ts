// Text bytes in an RTF file are in the code page of the document (\ansicpgN) or of the current
// font (\fcharsetN, \cpgN in the font table). Most writers also give every non-ASCII character as
// \uN, so these bytes are often only the fallback that \ucN skips.
import iconv from 'iconv-lite';

/** Windows character set (\fcharsetN) → code page; 1 ("default") means the document's. */
const CHARSET_CODE_PAGES: Record<number, number> = {
  0: 1252,
  2: 1252, // Symbol: no real mapping; read as Western rather than lose the text
  77: 10000,
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

const DOUBLE_BYTE_ENCODINGS = new Set(['cp932', 'cp936', 'cp949', 'cp950']);
const DEFAULT_CODE_PAGE = 1252;

/** The code page a font's \fcharsetN stands for, or null for "the document's". */
export function charsetCodePage(charset: number): number | null {
  return CHARSET_CODE_PAGES[charset] ?? null;
}

/** Decodes the bytes of one code page. Single-byte code pages use a 256-entry table. */
export class CodePageDecoder {
  readonly doubleByte: boolean;
  private readonly table: readonly string[];

  constructor(private readonly encoding: string) {
    this.doubleByte = DOUBLE_BYTE_ENCODINGS.has(encoding);
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
  const name = codePage === 10000 ? 'macintosh' : `cp${codePage}`;
  const encoding = iconv.encodingExists(name) ? name : `cp${DEFAULT_CODE_PAGE}`;
  let decoder = decoders.get(encoding);
  if (decoder === undefined) {
    decoder = new CodePageDecoder(encoding);
    decoders.set(encoding, decoder);
  }
  return decoder;
}
