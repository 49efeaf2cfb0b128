// Field schemas the section declarations share.
import { getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { controlCharacterProblem, HANDLE_PATTERN, idField } from '@margins/common';

/** Text without control characters (one line, or several with `multiLine`), trimmed. */
const text = (error: string, max: number, multiLine = false) =>
  z
    .string({ error })
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .superRefine((value, context) => {
      const problem = controlCharacterProblem(value, { multiLine });
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });

/** One line of text, trimmed, 1..max characters. */
export const requiredLine = (label: string, max = 200) =>
  text(`Enter ${label}.`, max).pipe(z.string().min(1, `Enter ${label}.`));

/** Text, trimmed; empty becomes null. */
export const optionalText = (max = 200, multiLine = false) =>
  text('Enter text.', max, multiLine)
    .transform((value) => value || null)
    .nullable()
    .optional();

/** One line of text, trimmed; empty becomes null. */
export const optionalLine = (max = 200) => optionalText(max);

export const email = z
  .string({ error: 'Enter an e-mail address.' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid e-mail address.'));

export const handle = z
  .string()
  .trim()
  .regex(HANDLE_PATTERN, '3 to 30 letters, digits or underscores.');

export const yesNo = z.boolean({ error: 'Choose yes or no.' });

/** An id of another row (a reference field). */
export const referenceId = idField('Choose an item.');

/**
 * A column as `"table"."column"`, for correlated subqueries: drizzle writes the columns of a
 * one-table select without their table, and a bare "id" inside a subquery would mean the
 * subquery's own id, not the outer row's.
 */
export const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
