import type { MailMessage } from '../../lib/mail.ts';
import { appLinks, compose, type Person } from '../notifications/templates.ts';

/** reminders: a polite word to a reader who has not read for a while (or whom the author nudged). */
export function readingReminderMail(
  publicUrl: string,
  input: {
    to: Person;
    author: Person;
    title: string;
    manuscriptId: number;
    idleDays: number | null;
    unsubscribeUrl: string;
  },
): MailMessage {
  const opening =
    input.idleDays === null
      ? `${input.author.displayName} wondered how you are getting on with “${input.title}”.`
      : `It has been more than ${input.idleDays} days since you last read “${input.title}” by ${input.author.displayName}.`;
  const mail = compose({
    to: input.to.email,
    subject: `Still reading “${input.title}”?`,
    greeting: `Hello ${input.to.displayName},`,
    paragraphs: [
      opening,
      'Your place is kept: the link opens the manuscript where you can pick up again. If you have stopped, you can tell the author why with “I’m stopping here” in the reader, and we will not remind you again.',
    ],
    action: { label: 'Continue reading', url: appLinks(publicUrl).reader(input.manuscriptId) },
    unsubscribeUrl: input.unsubscribeUrl,
  });
  return { ...mail, listUnsubscribe: input.unsubscribeUrl };
}
