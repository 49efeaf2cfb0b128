// Chapter-like lines of plain text become headings the same way wherever they stand: alone
// between blank lines, or at the top of a hard-wrapped paragraph; scene-break lines become
// scene breaks.
import { describe, expect, it } from 'vitest';
import { convertDocument } from './index.ts';
import { utf8 } from './test-factories.ts';

const WRAPPED_PROSE =
  'The rain had not stopped for three days, and the river rose until\n' +
  'it touched the lowest step of the mill, where the boats lay waiting.';

async function headingsOf(text: string): Promise<Array<[number, string]>> {
  const result = await convertDocument(utf8(text), 'txt');
  return result.toc.map((entry) => [entry.level, entry.text]);
}

describe('chapter headings in plain text', () => {
  const headings = [
    'Chapter 12',
    'CHAPTER XII',
    'Chapter Twelve',
    'CHAPTER 3: The Storm',
    'Chapter 7. The Harbour',
    'Prologue',
    'PROLOGUE',
    'Epilogue',
    'Epilogue: Ten Years Later',
    'Part Two',
    'PART II',
  ];

  it.each(headings)('takes "%s" alone between blank lines for a heading', async (heading) => {
    const toc = await headingsOf(`${WRAPPED_PROSE}\n\n${heading}\n\n${WRAPPED_PROSE}\n`);
    expect(toc.map(([, text]) => text)).toEqual([heading]);
  });

  it.each(headings)(
    'takes "%s" at the top of a wrapped paragraph for a heading',
    async (heading) => {
      const result = await convertDocument(
        utf8(`${WRAPPED_PROSE}\n\n${heading}\n${WRAPPED_PROSE}\n`),
        'txt',
      );
      expect(result.toc.map((entry) => entry.text)).toEqual([heading]);
      // The prose after it stays one paragraph of its own.
      expect(result.html.match(/<p /g)).toHaveLength(2);
    },
  );

  it('gives parts a level above chapters throughout', async () => {
    const text = [
      'Part One',
      'Prologue',
      WRAPPED_PROSE,
      'Chapter 1',
      WRAPPED_PROSE,
      'Part Two\n' + WRAPPED_PROSE,
      'CHAPTER II\n' + WRAPPED_PROSE,
      'Epilogue\n' + WRAPPED_PROSE,
    ].join('\n\n');
    expect(await headingsOf(text)).toEqual([
      [2, 'Part One'],
      [1, 'Prologue'],
      [1, 'Chapter 1'],
      [2, 'Part Two'],
      [1, 'CHAPTER II'],
      [1, 'Epilogue'],
    ]);
  });

  it('takes a Roman numeral alone on its line for a chapter heading', async () => {
    const text = ['IV.', WRAPPED_PROSE, 'V', WRAPPED_PROSE].join('\n\n');
    expect(await headingsOf(text)).toEqual([
      [1, 'IV.'],
      [1, 'V'],
    ]);
  });

  it('leaves sentences that start like headings in the prose', async () => {
    const text = [
      'Prologue to the meeting was a long silence, and nobody\nwanted to break it, not even the host.',
      'Chapter and verse, he said, and they laughed at him.',
      'Part of her wanted to stay.',
      'I.e. nothing at all.',
    ].join('\n\n');
    expect(await headingsOf(text)).toEqual([]);
  });
});

describe('scene breaks in plain text', () => {
  it.each(['* * *', '***', '#', '~ ~ ~', '- - -', '___', '= = =', '+ + +', 'oOo', '⁂'])(
    'takes "%s" for a scene break',
    async (line) => {
      const result = await convertDocument(
        utf8(`${WRAPPED_PROSE}\n\n${line}\n\n${WRAPPED_PROSE}\n`),
        'txt',
      );
      expect(result.html.match(/<hr [^>]*class="scene-break"/g)).toHaveLength(1);
    },
  );

  it('takes a scene-break line inside a wrapped paragraph for a scene break', async () => {
    const result = await convertDocument(
      utf8(`${WRAPPED_PROSE}\n* * *\n${WRAPPED_PROSE}\n`),
      'txt',
    );
    expect(result.html.match(/<hr [^>]*class="scene-break"/g)).toHaveLength(1);
    expect(result.html.match(/<p /g)).toHaveLength(2);
  });
});
