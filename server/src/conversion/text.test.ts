import { describe, expect, it } from 'vitest';
import { convertDocument } from './index.ts';
import { encodeText, utf8 } from './test-factories.ts';
import { decodeText, detectTextEncoding } from './text-encoding.ts';

const SAMPLE = 'Chapter 1\n\n“Où est la clé?” asked Zoë — the café’s owner — at 5 € a night.\n';

describe('text encodings', () => {
  it.each([
    ['UTF-8 without BOM', encodeText(SAMPLE, 'utf-8'), 'UTF-8'],
    ['UTF-8 with BOM', encodeText(SAMPLE, 'utf-8', true), 'UTF-8'],
    ['UTF-16LE with BOM', encodeText(SAMPLE, 'utf-16le', true), 'UTF-16LE'],
    ['UTF-16LE without BOM', encodeText(SAMPLE, 'utf-16le'), 'UTF-16LE'],
    ['UTF-16BE with BOM', encodeText(SAMPLE, 'utf-16be', true), 'UTF-16BE'],
    ['UTF-16BE without BOM', encodeText(SAMPLE, 'utf-16be'), 'UTF-16BE'],
    ['Windows-1252', encodeText(SAMPLE, 'windows-1252'), 'windows-1252'],
  ])('reads %s', async (_label, bytes, encoding) => {
    expect(detectTextEncoding(bytes)).toBe(encoding);
    expect(decodeText(bytes).text).toBe(SAMPLE);
    const result = await convertDocument(bytes, 'txt');
    expect(result.html).toContain(
      '“Où est la clé?” asked Zoë — the café’s owner — at 5 € a night.',
    );
    expect(result.toc).toEqual([{ id: expect.stringMatching(/^b-/), level: 1, text: 'Chapter 1' }]);
  });

  it('reads Latin-1 (ISO-8859-1)', async () => {
    const latin1 = 'Chapter 1\n\nÀ la façon de Günther: «Ça suffit», dit-il, señor.\n';
    const bytes = encodeText(latin1, 'latin1');
    expect(detectTextEncoding(bytes)).toBe('ISO-8859-1');
    expect(decodeText(bytes).text).toBe(latin1);
    const result = await convertDocument(bytes, 'txt');
    expect(result.html).toContain('À la façon de Günther: «Ça suffit», dit-il, señor.');
  });

  it('normalises line ends and drops control characters', () => {
    expect(decodeText(utf8('a\r\nb\rc\u0007d\u000be')).text).toBe('a\nb\ncd\ne');
  });
});

describe('plain text splitter', () => {
  async function convertText(text: string) {
    return convertDocument(utf8(text), 'txt');
  }

  it('finds chapter and part headings, the title and scene breaks', async () => {
    const result = await convertText(
      [
        'THE SALT ROAD',
        'Part II',
        'CHAPTER ONE',
        'It was the first day.',
        '* * *',
        'Then the second.',
        '***',
        'And a third.',
        '#',
        'Chapter 2: Home',
        'The end came.',
      ].join('\n\n'),
    );
    expect(result.toc.map((entry) => [entry.level, entry.text])).toEqual([
      [1, 'THE SALT ROAD'],
      [2, 'Part II'],
      [1, 'CHAPTER ONE'],
      [1, 'Chapter 2: Home'],
    ]);
    expect(result.title).toBe('THE SALT ROAD');
    expect(result.html.match(/<hr [^>]*class="scene-break"/g)).toHaveLength(3);
  });

  it('joins hard-wrapped lines into one paragraph', async () => {
    const result = await convertText(
      'It was a long night, and the keeper climbed the stair to the lamp room\n' +
        'where the wind had broken a pane of the great window again.\n\n' +
        'Morning came.\n',
    );
    expect(result.html).toMatch(
      /<p [^>]*>It was a long night, and the keeper climbed the stair to the lamp room where the wind/,
    );
    expect(result.html.match(/<p /g)).toHaveLength(2);
  });

  it('keeps the lines of verse', async () => {
    const result = await convertText(
      'A long line of prose that sets the wrap width of this little text file well.\n\n' +
        'The sea is calm tonight\nThe tide is full, the moon lies fair\nUpon the straits\n',
    );
    expect(result.html).toContain(
      'The sea is calm tonight<br>The tide is full, the moon lies fair<br>Upon the straits',
    );
  });

  it('treats every long line as a paragraph when the text is not wrapped', async () => {
    const long = (word: string) => `${word} `.repeat(40).trim() + '.';
    const result = await convertText(
      `${long('alpha')}\n${long('beta')}\nCHAPTER 2\n${long('gamma')}\n`,
    );
    expect(result.html.match(/<p /g)).toHaveLength(3);
    expect(result.toc.map((entry) => entry.text)).toEqual(['CHAPTER 2']);
  });

  it('does not take a sentence that starts with "Part" for a heading', async () => {
    const result = await convertText(
      'Part one of the plan was simple.\n\nChapter seven. The Harbour\n',
    );
    expect(result.toc.map((entry) => entry.text)).toEqual(['Chapter seven. The Harbour']);
  });
});
