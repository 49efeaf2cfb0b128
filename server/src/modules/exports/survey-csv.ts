import type { StoredAnswers, StoredQuestion } from '../../db/schema-access.ts';
import { toCsv } from './feedback-rows.ts';

/**
 * One survey's answers as CSV: one row per reader (display name only), one column per question
 * in the survey's order (choices by their text, several joined with "; "), and a column for the
 * reader's comment on each question that allows one.
 */
export function surveyCsv(
  questions: Record<string, StoredQuestion>,
  answers: Array<{
    reader: string;
    created: Date;
    score: number | null;
    approved: boolean;
    answers: StoredAnswers;
  }>,
): string {
  const ordered = Object.entries(questions).sort(([, a], [, b]) => a.order - b.order);
  const header = ['reader', 'date', 'score', 'approved'];
  for (const [, question] of ordered) {
    header.push(question.question);
    if (question.allowComments) header.push(`${question.question} (comment)`);
  }
  const rows = answers.map((answer) => {
    const cells: Array<string | number | boolean | null> = [
      answer.reader,
      answer.created.toISOString(),
      answer.score,
      answer.approved,
    ];
    for (const [id, question] of ordered) {
      const value = answer.answers[id];
      const choiceText = (choiceId: string) =>
        question.choices.find((choice) => choice.choiceId === choiceId)?.choice ?? choiceId;
      if (question.questionType === 'shortAnswer')
        cells.push(typeof value === 'string' ? value : '');
      else if (Array.isArray(value)) cells.push(value.map(choiceText).join('; '));
      else cells.push(typeof value === 'string' ? choiceText(value) : '');
      if (question.allowComments) {
        const comment = answer.answers[`comments-${id}`];
        cells.push(typeof comment === 'string' ? comment : '');
      }
    }
    return cells;
  });
  return toCsv(header, rows);
}
