// The group machinery of the RTF reader: one state per open group on an explicit stack (deep
// nesting costs memory, never the call stack, and is refused beyond a limit), text decoded by the
// code page in force, \uN with its fallback characters skipped, \* groups skipped unless known.
// What destinations and control words mean is the subclass's business (rtf-reader.ts).
import { ConversionError } from './errors.ts';
import { Flow } from './rtf-flow.ts';
import { RtfHeader } from './rtf-header.ts';
import { GroupState } from './rtf-state.ts';
import { decoderFor } from './rtf-text.ts';
import { RtfTokenizer } from './rtf-tokenizer.ts';

/** Groups nested deeper than this make the file refused (real documents stay far below). */
const MAX_GROUP_DEPTH = 1000;

const UNREADABLE_RTF =
  'The RTF file could not be read (it may be damaged). Open it in your word processor, save it again, and upload the new file.';

export abstract class RtfGroupReader {
  protected state: GroupState;
  /** The states of the enclosing groups; the last one is the parent of `state`. */
  protected readonly stack: GroupState[] = [];
  protected readonly header = new RtfHeader();
  private readonly tokenizer: RtfTokenizer;
  /** Fallback characters still to skip after \uN. */
  private skip = 0;
  /** Bytes of a double-byte code page, decoded together once the run of text ends. */
  private pendingBytes: number[] = [];

  constructor(private readonly source: string) {
    this.tokenizer = new RtfTokenizer(source, Math.max(0, source.indexOf('{')));
    this.state = new GroupState(new Flow(), decoderFor(this.header.documentCodePage));
  }

  /** Decoded text of the current group. */
  protected abstract emit(value: string): void;
  /** A control word (other than \u and \uc). */
  protected abstract handleWord(word: string, param: number | null): void;
  /** A group has started; `state` is its new state. */
  protected abstract opened(state: GroupState, parent: GroupState): void;

  /** Reads every token, then closes the groups a file cut short left open. */
  protected readAll(): void {
    const tokenizer = this.tokenizer;
    for (;;) {
      const token = tokenizer.next();
      if (token === 'end') break;
      if (this.pendingBytes.length > 0 && token !== 'text' && token !== 'hex') this.flushBytes();
      if (token === 'open') {
        this.open();
      } else if (token === 'close') {
        if (!this.close()) break;
      } else if (token === 'text') {
        this.handleText(tokenizer.text, tokenizer.plain);
      } else if (this.skip > 0) {
        // A control word, symbol, \'hh or \bin stands for one fallback character.
        this.skip -= 1;
      } else if (token === 'word') {
        this.handleUnicodeOrWord(tokenizer.word, tokenizer.param);
      } else if (token === 'symbol') {
        this.handleSymbol(tokenizer.word);
      } else if (token === 'hex') {
        this.handleByte(tokenizer.param ?? 0);
      } else if (token === 'binary' && this.state.destination === 'picture') {
        const bytes = this.source.slice(tokenizer.binaryStart, tokenizer.binaryEnd);
        if (this.state.picture)
          this.state.picture.binary = new Uint8Array(Buffer.from(bytes, 'latin1'));
      }
    }
    this.flushBytes();
    while (this.stack.length > 0) this.close();
  }

  /** Skips the rest of the current group unread (never the outermost group: the document). */
  protected skipGroup(): void {
    if (this.stack.length <= 1) {
      this.state.ignorable = false;
      return;
    }
    this.tokenizer.skipGroup();
    this.close();
  }

  private open(): void {
    this.skip = 0;
    const parent = this.state;
    this.stack.push(parent);
    if (this.stack.length > MAX_GROUP_DEPTH) {
      throw new ConversionError('corrupt', UNREADABLE_RTF, {
        cause: new Error(`RTF groups nested deeper than ${MAX_GROUP_DEPTH}`),
      });
    }
    this.state = parent.clone();
    this.opened(this.state, parent);
  }

  /** Ends the current group; false once the outermost group has ended. */
  private close(): boolean {
    this.skip = 0;
    const closing = this.state;
    closing.onClose?.(closing);
    const parent = this.stack.pop();
    if (parent === undefined) return false;
    this.state = parent;
    return this.stack.length > 0;
  }

  private handleText(raw: string, plain: boolean): void {
    let text = raw;
    if (this.skip > 0) {
      text = raw.slice(this.skip);
      this.skip = Math.max(0, this.skip - raw.length);
      if (text === '') return;
    }
    const state = this.state;
    if (state.ignorable) return this.skipGroup();
    if (state.destination === 'picture') {
      // Hex picture data: kept raw, never decoded as text.
      state.picture?.hex.push(text);
      return;
    }
    const decoder = state.decoder;
    if (decoder.doubleByte && (!plain || this.pendingBytes.length > 0)) {
      for (let i = 0; i < text.length; i += 1) this.pendingBytes.push(text.charCodeAt(i));
      return;
    }
    this.emit(plain ? text : decoder.decodeText(text));
  }

  private handleByte(byte: number): void {
    const decoder = this.state.decoder;
    if (decoder.doubleByte) this.pendingBytes.push(byte);
    else this.emit(decoder.decodeByte(byte));
  }

  private flushBytes(): void {
    if (this.pendingBytes.length === 0) return;
    const bytes = this.pendingBytes;
    this.pendingBytes = [];
    this.emit(this.state.decoder.decodeBytes(bytes));
  }

  private handleUnicodeOrWord(word: string, param: number | null): void {
    const state = this.state;
    if (word === 'u' && !state.ignorable) {
      // \uN is a signed 16-bit number; surrogate pairs come as two \uN in a row.
      const code = param === null ? 0x3f : param < 0 ? param + 65536 : param;
      this.emit(unicodeText(code));
      this.skip = state.unicodeSkip;
    } else if (word === 'uc' && !state.ignorable) {
      state.unicodeSkip = Math.max(0, param ?? 1);
    } else {
      this.handleWord(word, param);
    }
  }

  private handleSymbol(symbol: string): void {
    const state = this.state;
    if (symbol === '*') {
      state.ignorable = true;
      return;
    }
    if (state.ignorable) return this.skipGroup();
    if (symbol === '~') this.emit('\u00a0');
    else if (symbol === '_') this.emit('\u2011');
    else if (symbol === '{' || symbol === '}' || symbol === '\\') this.emit(symbol);
    // \- (optional hyphen), \: (index subentry), \| (formula) show nothing.
  }
}

/** The text of a \uN character: control characters are not text, a tab reads as a space. */
function unicodeText(code: number): string {
  if (code === 9) return ' ';
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return '';
  return String.fromCharCode(code);
}
