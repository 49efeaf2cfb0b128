import { describe, expect, it } from 'vitest';
import { surveyBody } from '@margins/common';
import { HALF_ANSWERS, QUIZ, RIGHT_ANSWERS } from '../invites/test-helpers.ts';
import { checkAnswers, NO_SUCH_QUESTION, passesAutoApproval, scoreAnswers } from './scoring.ts';

describe('scoreAnswers', () => {
  it('scores the share of scored questions answered exactly right', () => {
    expect(scoreAnswers(QUIZ, RIGHT_ANSWERS)).toBe(100);
    expect(scoreAnswers(QUIZ, HALF_ANSWERS)).toBe(50);
    // A superset of the right answers is wrong; unanswered is wrong.
    expect(scoreAnswers(QUIZ, { q1: 'b', q2: ['x', 'y', 'z'] })).toBe(50);
    expect(scoreAnswers(QUIZ, { q3: 'text only' })).toBe(0);
  });

  it('has no score when nothing is scored (only the author approves then)', () => {
    expect(scoreAnswers({ q3: QUIZ.q3! }, { q3: 'Anything' })).toBeNull();
  });

  it('rounds to two decimals', () => {
    const three = { ...QUIZ, q4: { ...QUIZ.q1!, order: 4 } };
    expect(scoreAnswers(three, { q1: 'b', q2: ['x'], q4: 'a' })).toBe(33.33);
  });
});

describe('passesAutoApproval', () => {
  it('approves from the pass mark up, only when on and scored', () => {
    const survey = { autoApprove: true, autoApprovePercent: 85 };
    expect(passesAutoApproval(survey, 85)).toBe(true);
    expect(passesAutoApproval(survey, 84.99)).toBe(false);
    expect(passesAutoApproval(survey, null)).toBe(false);
    expect(passesAutoApproval({ ...survey, autoApprove: false }, 100)).toBe(false);
  });
});

describe('checkAnswers', () => {
  it('cleans good answers: trims texts, a lone multipleAnswer choice becomes a list', () => {
    expect(
      checkAnswers(QUIZ, { q1: 'a', q2: 'x', q3: '  Fantasy  ', 'comments-q1': ' why not ' }),
    ).toEqual({
      errors: null,
      answers: { q1: 'a', q2: ['x'], q3: 'Fantasy', 'comments-q1': 'why not' },
    });
  });

  it('refuses unknown questions and choices, comments where none are allowed, empty answers', () => {
    const result = checkAnswers(QUIZ, {
      q1: 'zzz',
      q2: ['x', 'nope'],
      q3: ['a'],
      q9: 'x',
      'comments-q2': 'no comments here',
    });
    expect(result.answers).toBeNull();
    expect(result.errors).toEqual({
      q1: ['Choose one of the choices.'],
      q2: ['Choose among the choices.'],
      q3: ['Answer with text.'],
      q9: [NO_SUCH_QUESTION],
      'comments-q2': ['This question takes no comment.'],
    });
    expect(checkAnswers(QUIZ, { q3: '   ' }).errors).toEqual({
      answers: ['Answer at least one question.'],
    });
  });
});

describe('surveyBody (what the author may save)', () => {
  const body = (questions: unknown, extra: object = {}) =>
    surveyBody.safeParse({ manuscript_id: 1, surveyType: 'questionaire', questions, ...extra });

  it('defaults the pass mark to 85 and comments and right answers to off', () => {
    const parsed = body({
      q1: {
        question: 'Q?',
        questionType: 'multipleChoice',
        order: 1,
        choices: [
          { choiceId: 'a', choice: 'A' },
          { choiceId: 'b', choice: 'B', correctChoice: true },
        ],
      },
    });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({
      autoApprove: false,
      autoApprovePercent: 85,
      questions: { q1: { allowComments: false, choices: [{ correctChoice: false }, {}] } },
    });
  });

  it('refuses malformed questions', () => {
    const choice = (choiceId: string, correctChoice = false) => ({
      choiceId,
      choice: choiceId.toUpperCase(),
      correctChoice,
    });
    const cases: unknown[] = [
      {},
      { q1: { question: '', questionType: 'shortAnswer', order: 1 } },
      { q1: { question: 'Q?', questionType: 'essay', order: 1 } },
      { q1: { question: 'Q?', questionType: 'shortAnswer', order: 1, choices: [choice('a')] } },
      { q1: { question: 'Q?', questionType: 'multipleChoice', order: 1, choices: [choice('a')] } },
      {
        q1: {
          question: 'Q?',
          questionType: 'multipleChoice',
          order: 1,
          choices: [choice('a', true), choice('b', true)],
        },
      },
      {
        q1: {
          question: 'Q?',
          questionType: 'multipleAnswer',
          order: 1,
          choices: [choice('a'), choice('a')],
        },
      },
      { 'bad id!': { question: 'Q?', questionType: 'shortAnswer', order: 1 } },
    ];
    for (const questions of cases)
      expect(body(questions).success, JSON.stringify(questions)).toBe(false);
    expect(
      body(
        { q1: { question: 'Q?', questionType: 'shortAnswer', order: 1 } },
        { autoApprovePercent: 101 },
      ).success,
    ).toBe(false);
  });
});
