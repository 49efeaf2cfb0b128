// RTF text in the code page of the document (\ansicpgN) or of its font (\fcharsetN, \cpgN),
// double-byte code pages included, as writers that give no \uN for their text write it.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { defaultImageUrl } from './images.ts';
import { convertRtf } from './rtf.ts';
import { assertSafeHtml } from './test-factories.ts';

/** Text in a code page, written the way RTF writers do: bytes over 0x7F as \'hh. */
function escaped(text: string, encoding: string): string {
  let rtf = '';
  for (const byte of iconv.encode(text, encoding)) {
    if (byte >= 0x80) rtf += `\\'${byte.toString(16).padStart(2, '0')}`;
    else if (byte === 0x5c || byte === 0x7b || byte === 0x7d)
      rtf += `\\${String.fromCharCode(byte)}`;
    else rtf += String.fromCharCode(byte);
  }
  return rtf;
}

async function paragraphsOf(rtf: string): Promise<string[]> {
  const result = await convertRtf(new Uint8Array(Buffer.from(rtf, 'latin1')), defaultImageUrl);
  assertSafeHtml(result.html);
  return [...result.html.matchAll(/<p[^>]*>(.*?)<\/p>/g)].map((match) => match[1]!);
}

const SAMPLES = [
  { charset: 128, encoding: 'shift_jis', text: '古い家は川のそばに建っていた。' },
  { charset: 129, encoding: 'cp949', text: '오래된 집은 강 옆에 서 있었다.' },
  { charset: 134, encoding: 'gbk', text: '老房子就在河边。' },
  { charset: 136, encoding: 'big5', text: '老房子就在河邊。' },
  { charset: 161, encoding: 'windows-1253', text: 'Το παλιό σπίτι ήταν δίπλα στη θάλασσα.' },
  {
    charset: 162,
    encoding: 'windows-1254',
    text: 'Eski ev nehrin yanında duruyordu; ağaçlar, şu.',
  },
  { charset: 177, encoding: 'windows-1255', text: 'הבית הישן עמד ליד הנהר.' },
  { charset: 178, encoding: 'windows-1256', text: 'كان البيت القديم بجانب النهر.' },
  { charset: 204, encoding: 'windows-1251', text: 'Старый дом стоял у самой реки.' },
  { charset: 238, encoding: 'windows-1250', text: 'Starý dům stál hned u řeky. Łódź, żółw.' },
];

describe('RTF code pages', () => {
  it('reads each font in the code page of its \\fcharsetN', async () => {
    const fonts = SAMPLES.map(
      ({ charset }, i) => `{\\f${i + 1}\\fnil\\fcharset${charset} Font${i};}`,
    );
    const body = SAMPLES.map(
      ({ encoding, text }, i) => `{\\f${i + 1} ${escaped(text, encoding)}}\\par`,
    );
    const rtf = `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\froman\\fcharset0 Times;}${fonts.join('')}}\n\\pard ${body.join('\n')}}`;
    expect(await paragraphsOf(rtf)).toEqual(SAMPLES.map(({ text }) => text));
  });

  it('reads the document in \\ansicpg10001 (Mac Japanese)', async () => {
    const text = '吾輩は猫である。名前はまだ無い。';
    const rtf = `{\\rtf1\\mac\\ansicpg10001\\deff0{\\fonttbl{\\f0\\fnil Osaka;}}\\pard\\f0 ${escaped(text, 'shift_jis')}\\par}`;
    expect(await paragraphsOf(rtf)).toEqual([text]);
  });

  it('reads a font in \\cpg65001 (UTF-8), which says more than its \\fcharset', async () => {
    const text = 'Ünïcödé: 日本語、Ελληνικά, русский.';
    const rtf = `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fcharset0 Times;}{\\f1\\fcharset128\\cpg65001 Noto;}{\\f2\\cpg65001\\fcharset204 Noto;}}\\pard{\\f1 ${escaped(text, 'utf8')}}\\par{\\f2 ${escaped(text, 'utf8')}}\\par}`;
    expect(await paragraphsOf(rtf)).toEqual([text, text]);
  });

  it('reads fonts in Mac character sets (\\fcharset78 Mac Japanese, \\fcharset89 Mac Cyrillic)', async () => {
    const japanese = '猫である。';
    const russian = 'Старый дом.';
    const rtf = `{\\rtf1\\mac\\deff0{\\fonttbl{\\f0 Times;}{\\f1\\fcharset78 Osaka;}{\\f2\\fcharset89 Times CY;}}\\pard{\\f1 ${escaped(japanese, 'shift_jis')}}\\par{\\f2 ${escaped(russian, 'maccyrillic')}}\\par}`;
    expect(await paragraphsOf(rtf)).toEqual([japanese, russian]);
  });

  it('reads double-byte characters whose trail byte is plain ASCII', async () => {
    // "アイス" in Shift_JIS is 83 41 83 43 83 58: the trail bytes are "A", "C" and "X".
    const rtf = `{\\rtf1\\ansi\\ansicpg932\\deff0{\\fonttbl{\\f0\\fcharset128 MS Mincho;}}\\pard\\f0 \\'83A\\'83C\\'83X ok\\par}`;
    expect(await paragraphsOf(rtf)).toEqual(['アイス ok']);
  });

  it('skips the \\ucN fallback bytes after \\uN, in double-byte fonts too', async () => {
    const rtf = `{\\rtf1\\ansi\\ansicpg932\\uc2\\deff0{\\fonttbl{\\f0\\fcharset128 MS Mincho;}}\\pard\\f0 \\u12354\\'82\\'a0\\u12356\\'82\\'a2 {\\uc1\\u233 e} and \\'82\\'a4\\par}`;
    expect(await paragraphsOf(rtf)).toEqual(['あい é and う']);
  });

  it('reads a code page it does not know as Windows-1252 rather than failing', async () => {
    const rtf = `{\\rtf1\\ansi\\ansicpg99999\\deff0{\\fonttbl{\\f0 Times;}}\\pard caf\\'e9\\par}`;
    expect(await paragraphsOf(rtf)).toEqual(['café']);
  });
});
