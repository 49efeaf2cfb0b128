// Legacy encodings of plain text and HTML without a declared charset: each passage, encoded in
// each legacy encoding of its language, must come back letter for letter; text that no
// encoding reads is refused with a message instead of being shown as mojibake.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { detectFormat } from './detect-format.ts';
import { LEGACY_ENCODINGS, PROSE } from './fixtures/encoding-samples.ts';
import { convertDocument } from './index.ts';
import { decodeText, detectTextEncoding } from './text-encoding.ts';

// Typography that not every code page has, and what a writer using that code page typed instead.
const PLAIN_TYPOGRAPHY: Record<string, string> = {
  '«': '"',
  '»': '"',
  '„': '"',
  '“': '"',
  '”': '"',
  '’': "'",
  '—': '-',
};

/** The passage as a writer could have typed it in this encoding. */
function typedIn(text: string, encoding: string): string {
  const fits = (char: string) => iconv.decode(iconv.encode(char, encoding), encoding) === char;
  return [...text].map((char) => (fits(char) ? char : (PLAIN_TYPOGRAPHY[char] ?? char))).join('');
}

function encode(text: string, encoding: string): Uint8Array {
  const bytes = new Uint8Array(iconv.encode(text, encoding));
  // The passage must survive the encoding itself, or the test would prove nothing.
  expect(iconv.decode(Buffer.from(bytes), encoding)).toBe(text);
  return bytes;
}

const CASES = LEGACY_ENCODINGS.flatMap(({ language, encodings }) =>
  encodings.map((encoding) => ({ language, encoding, text: typedIn(PROSE[language], encoding) })),
);

describe('legacy encodings of plain text', () => {
  it.each(CASES)('reads $language in $encoding', async ({ encoding, text }) => {
    const bytes = encode(text, encoding);
    expect(detectFormat('story.txt', bytes)).toBe('txt');
    expect(decodeText(bytes).text).toBe(text);
    const result = await convertDocument(bytes, 'txt');
    const firstSentence = text.split('\n')[0]!.slice(0, 30);
    expect(result.html).toContain(firstSentence);
  });

  it.each(CASES)(
    'reads $language in $encoding in HTML without a charset',
    async ({ encoding, text }) => {
      const [first, second] = text.split('\n\n');
      const bytes = encode(`<html><body><p>${first}</p><p>${second}</p></body></html>`, encoding);
      const result = await convertDocument(bytes, 'html');
      expect(result.html).toContain(second!.slice(0, 30));
    },
  );

  it.each([
    'It cost £5, £10 or £20, ±3.',
    'It was 5°C outside. © 2020 the keeper.',
    'Add ½ cup of sugar and ¼ of salt.',
    'See § 3 of the rules; 10 ¥ or 5 €, 3 × 4 = 12 µm.',
    '“Quoted,” he said — and left…',
    'Her naïve résumé of the café; Señor Muñoz said «adiós»; Straße und Öl.',
  ])('reads English in windows-1252 with a few signs: %s', (line) => {
    const text = `The keeper climbed the stair to the lamp room where the wind had broken a pane. ${line}`;
    expect(decodeText(encode(text, 'windows-1252')).text).toBe(text);
  });

  it('names the encoding it chose', () => {
    const russian = typedIn(PROSE.russian, 'koi8-r');
    expect(detectTextEncoding(encode(russian, 'koi8-r'))).toBe('KOI8-R');
    expect(detectTextEncoding(encode(PROSE.russian, 'windows-1251'))).toBe('windows-1251');
    expect(detectTextEncoding(encode(PROSE.japanese, 'Shift_JIS'))).toBe('Shift_JIS');
    expect(detectTextEncoding(encode(PROSE.polish, 'windows-1250'))).toBe('windows-1250');
  });
});

describe('other legacy encodings', () => {
  it('reads Japanese in ISO-2022-JP, which is seven-bit and so also valid UTF-8', () => {
    // 日本語の文章。 in ISO-2022-JP, as mail and old text files have it.
    const bytes = new Uint8Array(Buffer.from('1b2442467c4b5c386c244e4a383e4f21231b2842', 'hex'));
    expect(detectFormat('story.txt', bytes)).toBe('txt');
    expect(decodeText(bytes).text).toBe('日本語の文章。');
  });

  it('reads Thai in windows-874 (TIS-620)', () => {
    const thai = 'บ้านเก่าตั้งอยู่ริมแม่น้ำ ทุกเช้าคุณยายจะออกไปนั่งที่ระเบียงและมองดูน้ำอยู่นาน';
    expect(decodeText(encode(thai, 'cp874')).text).toBe(thai);
  });

  it('reads Russian in IBM855', () => {
    const russian = typedIn(PROSE.russian, 'cp855');
    expect(decodeText(encode(russian, 'cp855')).text).toBe(russian);
  });
});

describe('UTF-16 without a byte-order mark', () => {
  const languages = [
    'russian',
    'greek',
    'hebrew',
    'japanese',
    'korean',
    'chineseSimplified',
  ] as const;
  const cases = languages.flatMap((language) =>
    (['utf-16le', 'utf-16be'] as const).map((encoding) => ({ language, encoding })),
  );

  it.each(cases)('reads $language in $encoding', ({ language, encoding }) => {
    const bytes = encode(PROSE[language], encoding);
    expect(detectFormat('story.txt', bytes)).toBe('txt');
    expect(decodeText(bytes).text).toBe(PROSE[language]);
  });

  it('reads CJK in UTF-16 with no line ends or spaces at all', () => {
    const text = PROSE.japanese.replace(/\s+/g, '');
    const bytes = encode(text, 'utf-16le');
    expect(detectFormat('story.txt', bytes)).toBe('txt');
    expect(decodeText(bytes).text).toBe(text);
  });
});

describe('text no encoding reads', () => {
  /** Bytes 0x80–0xFF in word-sized runs between spaces: no code page makes prose of them. */
  function noise(length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    let seed = 12345;
    for (let i = 0; i < length; i += 1) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      bytes[i] = i % 7 === 6 ? 0x20 : 0x80 + ((seed >>> 16) & 0x7f);
    }
    return bytes;
  }

  it('is refused with a message the author can act on, not shown as mojibake', async () => {
    const bytes = noise(4000);
    expect(() => decodeText(bytes)).toThrow(MESSAGES.textEncodingUnknown);
    await expect(convertDocument(bytes, 'txt')).rejects.toThrow(MESSAGES.textEncodingUnknown);
    await expect(convertDocument(bytes, 'html')).rejects.toThrow(MESSAGES.textEncodingUnknown);
  });

  it('is not said of English text with a stray byte or two', () => {
    const english = 'It was a dark and stormy night; the rain fell in torrents. '.repeat(20);
    const bytes = new Uint8Array([...encode(english, 'windows-1252'), 0x81, 0x8d]);
    expect(decodeText(bytes).text.startsWith(english)).toBe(true);
  });
});
