import type { SurveyAnswers } from '@margins/common';
import type { StoredAnswers, StoredQuestion } from '../../db/schema-access.ts';
import type { FieldErrors } from '../../lib/http-errors.ts';

const COMMENT_PREFIX = 'comments-';
export const NO_SUCH_QUESTION = 'There is no such question.';

/**
 * Checks answers against the survey's questions and returns them cleaned (texts trimmed, a
 * lone multipleAnswer choice as a list, duplicates dropped), or the errors by question id.
 */
export function checkAnswers(
  questions: Record<string, StoredQuestion>,
  answers: SurveyAnswers,
): { answers: StoredAnswers; errors: null } | { answers: null; errors: FieldErrors } {
  // Keys are the reader's: null-prototype maps and own-key lookups, so that `toString` or
  // `constructor` is an unknown question, not a method of Object.prototype.
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  const cleaned: StoredAnswers = Object.create(null) as StoredAnswers;
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  for (const [key, value] of Object.entries(answers)) {
    if (key.startsWith(COMMENT_PREFIX)) {
      const question = ownValue(questions, key.slice(COMMENT_PREFIX.length));
      if (!question) fail(key, NO_SUCH_QUESTION);
      else if (!question.allowComments) fail(key, 'This question takes no comment.');
      else if (typeof value !== 'string') fail(key, 'A comment is text.');
      else if (value.trim()) cleaned[key] = value.trim();
      continue;
    }
    const question = ownValue(questions, key);
    if (!question) {
      fail(key, NO_SUCH_QUESTION);
      continue;
    }
    const choiceIds = new Set(question.choices.map((choice) => choice.choiceId));
    switch (question.questionType) {
      case 'shortAnswer':
        if (typeof value !== 'string') fail(key, 'Answer with text.');
        else if (value.trim()) cleaned[key] = value.trim();
        break;
      case 'multipleChoice':
        if (typeof value !== 'string' || !choiceIds.has(value))
          fail(key, 'Choose one of the choices.');
        else cleaned[key] = value;
        break;
      case 'multipleAnswer': {
        const picked = [...new Set(typeof value === 'string' ? [value] : value)];
        if (picked.some((id) => !choiceIds.has(id))) fail(key, 'Choose among the choices.');
        else cleaned[key] = picked;
        break;
      }
    }
  }
  const answered = Object.keys(cleaned).some((key) => !key.startsWith(COMMENT_PREFIX));
  if (Object.keys(errors).length === 0 && !answered)
    fail('answers', 'Answer at least one question.');
  return Object.keys(errors).length > 0
    ? { answers: null, errors }
    : { answers: { ...cleaned }, errors: null }; // a plain object again for the database driver
}

/** The value under `key` when the object has it as its own, never an inherited one. */
function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A choice question with at least one right answer counts toward the score. */
const isScored = (question: StoredQuestion) =>
  question.questionType !== 'shortAnswer' &&
  question.choices.some((choice) => choice.correctChoice);

/**
 * The questionnaire score: the percentage of scored questions answered right (multipleChoice:
 * the right choice; multipleAnswer: exactly the right set). Unanswered counts as wrong. Null
 * when no question is scored (only the author can approve then).
 */
export function scoreAnswers(
  questions: Record<string, StoredQuestion>,
  answers: StoredAnswers,
): number | null {
  const scored = Object.entries(questions).filter(([, question]) => isScored(question));
  if (scored.length === 0) return null;
  let right = 0;
  for (const [id, question] of scored) {
    const correct = question.choices
      .filter((choice) => choice.correctChoice)
      .map((c) => c.choiceId);
    const answer = ownValue(answers, id);
    const picked = answer === undefined ? [] : typeof answer === 'string' ? [answer] : answer;
    const isRight =
      picked.length === correct.length && picked.every((choiceId) => correct.includes(choiceId));
    if (isRight) right += 1;
  }
  return Math.round((right / scored.length) * 10_000) / 100;
}

/** Auto-approval: on, a score, and the score reaches the pass mark. */
export function passesAutoApproval(
  survey: { autoApprove: boolean; autoApprovePercent: number },
  score: number | null,
): boolean {
  return survey.autoApprove && score !== null && score >= survey.autoApprovePercent;
}
