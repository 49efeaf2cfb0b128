// Field schemas the section declarations share.
import { z } from 'zod';
import { HANDLE_PATTERN, singleLineText } from '@margins/common';

/** One line of text, trimmed, 1..max characters. */
export const requiredLine = (label: string, max = 200) =>
  singleLineText().trim().min(1, `Enter ${label}.`).max(max, `Use at most ${max} characters.`);

/** One line of text, trimmed; empty becomes null. */
export const optionalLine = (max = 200) =>
  singleLineText()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .transform((value) => value || null)
    .nullable()
    .optional();

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
export const referenceId = z.coerce
  .number({ error: 'Choose an item.' })
  .int('Choose an item.')
  .positive('Choose an item.')
  .max(2_147_483_647, 'Choose an item.');
