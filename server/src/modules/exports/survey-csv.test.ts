import { describe, expect, it } from 'vitest';
import { csvField } from './feedback-rows.ts';
import { surveyCsv } from './survey-csv.ts';
import { parseCsv } from './test-docx.ts';

describe('survey CSV', () => {
  it('has one row per answer, choices by their text, comments in their own column', () => {
    const csv = surveyCsv(
      {
        q2: {
          question: 'Favourite scenes?',
          questionType: 'multipleAnswer',
          order: 2,
          allowComments: false,
          choices: [
            { choiceId: 'a', choice: 'The storm', correctChoice: false },
            { choiceId: 'b', choice: 'The lamp, "lit"', correctChoice: false },
          ],
        },
        q1: {
          question: 'Did you finish?',
          questionType: 'multipleChoice',
          order: 1,
          allowComments: true,
          choices: [{ choiceId: 'y', choice: 'Yes', correctChoice: true }],
        },
        q3: {
          question: 'Anything else?',
          questionType: 'shortAnswer',
          order: 3,
          allowComments: false,
          choices: [],
        },
      },
      [
        {
          reader: 'Ida',
          created: new Date('2026-01-01T00:00:00Z'),
          score: 100,
          approved: true,
          answers: { q1: 'y', 'comments-q1': 'Twice!', q2: ['a', 'b'], q3: '=cmd|calc' },
        },
      ],
    );
    const [header, row] = parseCsv(csv);
    expect(header).toEqual([
      'reader',
      'date',
      'score',
      'approved',
      'Did you finish?',
      'Did you finish? (comment)',
      'Favourite scenes?',
      'Anything else?',
    ]);
    expect(row).toEqual([
      'Ida',
      '2026-01-01T00:00:00.000Z',
      '100',
      'true',
      'Yes',
      'Twice!',
      'The storm; The lamp, "lit"',
      "'=cmd|calc",
    ]);
  });

  it('quotes and defuses fields', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
  });
});
