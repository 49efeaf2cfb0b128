import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildAnswer, buildSurvey, personFor, QUIZ, type Person } from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { checkAnswers, NO_SUCH_QUESTION, scoreAnswers } from './scoring.ts';

// Names every plain object inherits: a user's key must never find them.
const PROTOTYPE_KEYS = ['toString', 'constructor', 'valueOf', 'hasOwnProperty'];

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});
afterAll(() => test.close());

describe('survey answers keyed by names every object inherits', () => {
  for (const surveyType of ['questionaire', 'feedback'] as const) {
    it(`are field errors (400) on the ${surveyType}, not a 500`, async () => {
      const manuscript = await buildManuscript(test.ctx.db, author.user, {
        visibility: 'logged_in',
      });
      const questionnaire = await buildSurvey(test.ctx.db, manuscript.id);
      if (surveyType === 'feedback') {
        await buildSurvey(test.ctx.db, manuscript.id, {
          surveyType: 'feedback',
          autoApprove: false,
        });
      }
      for (const key of [...PROTOTYPE_KEYS, ...PROTOTYPE_KEYS.map((key) => `comments-${key}`)]) {
        const reader = await personFor(test);
        if (surveyType === 'feedback') {
          await buildAnswer(test.ctx.db, questionnaire.id, reader.user.id, true);
        }
        const response = await reader.client.post(
          `/manuscript/${manuscript.id}/survey/${surveyType}`,
          { user_id: reader.user.id, answers: { q3: 'Fine', [key]: 'x' } },
        );
        expect(response.statusCode, `${key}: ${response.body}`).toBe(400);
        expect(response.json().errors).toEqual({ [key]: [NO_SUCH_QUESTION] });
      }
    });
  }
});

describe('scoring with question ids that are prototype names', () => {
  it('checks and scores by own keys only', () => {
    expect(checkAnswers(QUIZ, { q3: 'Fine', constructor: 'x' }).errors).toEqual({
      constructor: [NO_SUCH_QUESTION],
    });
    const questions = { toString: QUIZ.q1!, valueOf: QUIZ.q2! };
    const checked = checkAnswers(questions, { toString: 'b' });
    expect(checked.errors).toBeNull();
    // valueOf unanswered: wrong, not a crash on the inherited function.
    expect(scoreAnswers(questions, checked.answers!)).toBe(50);
    expect(scoreAnswers(questions, JSON.parse('{"toString":"b","valueOf":["x","z"]}'))).toBe(100);
  });
});
