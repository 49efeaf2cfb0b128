import { escapeHtml, type MailMessage } from '../../lib/mail.ts';
import { appLinks } from '../notifications/templates.ts';

interface FlagMailInput {
  to: { email: string; displayName: string };
  title: string;
  manuscriptId: number;
  /** The flag's reason; null when the flag was cleared. */
  reason: string | null;
}

/**
 * Tells an author their manuscript was flagged (with the reason readers are shown) or that the
 * flag was cleared. Sent whatever the notification preferences: it is about their account's
 * standing, not a notification they chose.
 */
export function manuscriptFlagMail(publicUrl: string, input: FlagMailInput): MailMessage {
  const flagged = input.reason !== null;
  const subject = flagged
    ? `Your manuscript “${input.title}” was flagged by our moderators`
    : `The flag on your manuscript “${input.title}” was cleared`;
  const paragraphs = flagged
    ? [
        `Our moderators flagged “${input.title}”. Readers now see this notice before the text: “This manuscript was flagged by our moderators. Reason: ${input.reason}”.`,
        'If you think this is a mistake, or once you have changed what the reason names, write to us from the contact page.',
      ]
    : [`Our moderators cleared the flag on “${input.title}”. Readers no longer see a notice.`];
  const url = appLinks(publicUrl).reader(input.manuscriptId);
  const greeting = `Hello ${input.to.displayName},`;
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), `Open it: ${url}`, ''].join(
    '\n',
  );
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(url)}">Open it</a></p>`,
  ].join('');
  return { to: input.to.email, subject, text, html };
}
