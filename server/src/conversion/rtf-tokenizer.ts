// Splits RTF source into tokens. The source is the file's bytes read as latin1, so that every byte
// is one character and raw bytes (text in the document's code page, \bin data) survive unchanged.

/** What the tokenizer read: see the fields of RtfTokenizer for each kind's value. */
type RtfToken = 'end' | 'open' | 'close' | 'word' | 'symbol' | 'hex' | 'text' | 'binary';

const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x27;
const MINUS = 0x2d;

// Where a text run ends, and whether it holds anything other than printable ASCII.
const TEXT_END = /[\\{}\r\n]/g;
const NOT_PLAIN = /[^\x20-\x7e]/;
const GROUP_SYNTAX = /[\\{}]/g;

const isLetter = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

function hexDigit(code: number): number {
  if (isDigit(code)) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Reads one token at a time; the last token's value is in the public fields. */
export class RtfTokenizer {
  /** The control word without its backslash ('word'), or the symbol's character ('symbol'). */
  word = '';
  /** The control word's numeric parameter (null when it has none), or the byte of a 'hex' token. */
  param: number | null = null;
  /** A run of text ('text'), one byte per character; `plain` when it is all printable ASCII. */
  text = '';
  plain = true;
  /** The raw bytes of a \binN token, as a range of the source. */
  binaryStart = 0;
  binaryEnd = 0;

  private position: number;

  constructor(
    private readonly source: string,
    start = 0,
  ) {
    this.position = start;
  }

  next(): RtfToken {
    const source = this.source;
    for (;;) {
      let i = this.position;
      let code = source.charCodeAt(i);
      while (code === CR || code === LF) code = source.charCodeAt(++i);
      if (i >= source.length) {
        this.position = i;
        return 'end';
      }
      if (code === OPEN || code === CLOSE) {
        this.position = i + 1;
        return code === OPEN ? 'open' : 'close';
      }
      if (code !== BACKSLASH) {
        TEXT_END.lastIndex = i;
        const end = TEXT_END.exec(source)?.index ?? source.length;
        this.text = source.slice(i, end);
        this.plain = !NOT_PLAIN.test(this.text);
        this.position = end;
        return 'text';
      }
      const token = this.readControl(i + 1);
      if (token !== null) return token;
      // A malformed \' escape: read on after it.
    }
  }

  /** Reads past the end of the group the last 'open' token started, without looking inside. */
  skipGroup(): void {
    const source = this.source;
    let depth = 1;
    let i = this.position;
    while (depth > 0) {
      GROUP_SYNTAX.lastIndex = i;
      const match = GROUP_SYNTAX.exec(source);
      if (match === null) {
        i = source.length;
        break;
      }
      i = match.index + 1;
      const code = source.charCodeAt(match.index);
      if (code === OPEN) depth += 1;
      else if (code === CLOSE) depth -= 1;
      else if (isLetter(source.charCodeAt(i))) {
        // \binN data may hold braces: step over it.
        this.position = i;
        if (this.readControl(i) === 'binary') i = this.binaryEnd;
        else i = this.position;
      } else {
        i += 1; // an escaped character: \{ \} \\
      }
    }
    this.position = i;
  }

  private readControl(start: number): RtfToken | null {
    const source = this.source;
    if (start >= source.length) {
      this.position = start;
      return 'end';
    }
    const code = source.charCodeAt(start);
    if (isLetter(code)) return this.readWord(start);
    if (code === QUOTE) {
      const high = hexDigit(source.charCodeAt(start + 1));
      const low = hexDigit(source.charCodeAt(start + 2));
      if (high < 0 || low < 0) {
        this.position = start + 1;
        return null;
      }
      this.param = high * 16 + low;
      this.position = start + 3;
      return 'hex';
    }
    this.position = start + 1;
    if (code === CR || code === LF) {
      // A backslash before a line break is a paragraph mark.
      this.word = 'par';
      this.param = null;
      return 'word';
    }
    this.word = source[start] ?? '';
    this.param = null;
    return 'symbol';
  }

  private readWord(start: number): RtfToken {
    const source = this.source;
    let i = start + 1;
    while (isLetter(source.charCodeAt(i))) i += 1;
    this.word = source.slice(start, i);
    this.param = null;
    const negative = source.charCodeAt(i) === MINUS && isDigit(source.charCodeAt(i + 1));
    if (negative) i += 1;
    if (isDigit(source.charCodeAt(i))) {
      let value = 0;
      while (isDigit(source.charCodeAt(i))) {
        value = value * 10 + source.charCodeAt(i) - 0x30;
        i += 1;
      }
      this.param = negative ? -value : value;
    }
    if (source.charCodeAt(i) === SPACE) i += 1;
    this.position = i;
    if (this.word === 'bin' && this.param !== null && this.param > 0) {
      this.binaryStart = i;
      this.binaryEnd = Math.min(source.length, i + this.param);
      this.position = this.binaryEnd;
      return 'binary';
    }
    return 'word';
  }
}
