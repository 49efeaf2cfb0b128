import { z } from 'zod';
import { singleLineText } from './fields.ts';

export const contactBody = z.object({
  name: singleLineText().trim().min(1, 'Enter your name.').max(120),
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address.')),
  subject: singleLineText().trim().min(1, 'Enter a subject.').max(200),
  message: z.string().trim().min(1, 'Write a message.').max(5000, 'Use at most 5000 characters.'),
});
export type ContactBody = z.infer<typeof contactBody>;
