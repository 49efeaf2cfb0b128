import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml } from '../../lib/mail.ts';

/** Where a notification mail's links point (absolute, from config.publicUrl). */
export const appLinks = (publicUrl: string) => ({
  reader: (manuscriptId: number) => `${publicUrl}/manuscript/document/reader/${manuscriptId}`,
  share: (code: string) => `${publicUrl}/share/${encodeURIComponent(code)}`,
  signup: (code: string) => `${publicUrl}/auth/signup?next=${encodeURIComponent(`/share/${code}`)}`,
  questionnaireAnswers: (manuscriptId: number) =>
    `${publicUrl}/manuscript/${manuscriptId}/survey/questionaire/responses`,
  /** The dashboard, opening the manuscript's Share tab (where requests are approved). */
  shareTab: (manuscriptId: number) => `${publicUrl}/dashboard#manuscript-${manuscriptId}-share`,
  preferences: `${publicUrl}/profile/notification/preferences`,
});

interface MailParts {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  /** The preferences page, for mails a preference allows (absent for mails to non-users). */
  unsubscribeUrl?: string;
}

/** One plain-text and one HTML body from the same parts; every value is escaped in HTML. */
export function compose(parts: MailParts): MailMessage {
  const footer = parts.unsubscribeUrl
    ? `You get this mail because of your notification preferences. Unsubscribe or change them: ${parts.unsubscribeUrl}`
    : 'You get this mail because a Margins author invited this address. If you do not know them, ignore it.';
  const text = [
    `${parts.greeting}`,
    '',
    ...parts.paragraphs.flatMap((paragraph) => [paragraph, '']),
    `${parts.action.label}: ${parts.action.url}`,
    '',
    '--',
    footer,
    '',
  ].join('\n');
  const htmlFooter = parts.unsubscribeUrl
    ? `You get this mail because of your notification preferences. <a href="${escapeHtml(parts.unsubscribeUrl)}">Unsubscribe or change them</a>.`
    : escapeHtml(footer);
  const html = [
    `<p>${escapeHtml(parts.greeting)}</p>`,
    ...parts.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${escapeHtml(parts.action.url)}">${escapeHtml(parts.action.label)}</a></p>`,
    `<hr><p style="font-size:small;color:#666">${htmlFooter}</p>`,
  ].join('');
  return { to: parts.to, subject: parts.subject, text, html };
}

export interface Person {
  email: string;
  displayName: string;
}

/** invited_to_document: an author invited this account to read a manuscript. */
export function invitedToDocumentMail(
  publicUrl: string,
  input: { to: Person; author: Person; title: string; code: string },
): MailMessage {
  const links = appLinks(publicUrl);
  return compose({
    to: input.to.email,
    subject: `${input.author.displayName} invited you to read “${input.title}”`,
    greeting: `Hello ${input.to.displayName},`,
    paragraphs: [
      `${input.author.displayName} invited you to beta-read “${input.title}” on Margins.`,
      'Open the link to accept the invite and start reading. You can also accept or decline it on your dashboard.',
    ],
    action: { label: 'Read the manuscript', url: links.share(input.code) },
    unsubscribeUrl: links.preferences,
  });
}

/** An author invited an address that has no account yet: sign up, and the invite waits. */
export function invitedByEmailMail(
  publicUrl: string,
  input: { to: string; author: Person; title: string; code: string },
): MailMessage {
  const links = appLinks(publicUrl);
  return compose({
    to: input.to,
    subject: `${input.author.displayName} invited you to read “${input.title}”`,
    greeting: 'Hello,',
    paragraphs: [
      `${input.author.displayName} invited you to beta-read “${input.title}” on Margins, where authors share manuscripts with the readers they choose.`,
      'Create your free account with this e-mail address and the invite will be waiting for you.',
    ],
    action: { label: 'Sign up and read', url: links.signup(input.code) },
  });
}

/** received_approval: the reader may now read (questionnaire or access request approved). */
export function receivedApprovalMail(
  publicUrl: string,
  input: { to: Person; title: string; manuscriptId: number; reason: 'questionnaire' | 'request' },
): MailMessage {
  const links = appLinks(publicUrl);
  return compose({
    to: input.to.email,
    subject: `You're approved to read “${input.title}”`,
    greeting: `Hello ${input.to.displayName},`,
    paragraphs: [
      input.reason === 'questionnaire'
        ? `Your questionnaire answers for “${input.title}” were approved.`
        : `Your request to read “${input.title}” was approved.`,
      'Happy reading!',
    ],
    action: { label: 'Start reading', url: links.reader(input.manuscriptId) },
    unsubscribeUrl: links.preferences,
  });
}

/** reader_needs_approval: a reader answered the questionnaire, or asked for access. */
export function readerNeedsApprovalMail(
  publicUrl: string,
  input: {
    to: Person;
    reader: Person;
    title: string;
    manuscriptId: number;
    reason: 'questionnaire' | 'request';
  },
): MailMessage {
  const links = appLinks(publicUrl);
  const byQuestionnaire = input.reason === 'questionnaire';
  return compose({
    to: input.to.email,
    subject: `${input.reader.displayName} is waiting for your approval`,
    greeting: `Hello ${input.to.displayName},`,
    paragraphs: [
      byQuestionnaire
        ? `${input.reader.displayName} answered the questionnaire of “${input.title}” and is waiting for your approval.`
        : `${input.reader.displayName} asked for access to “${input.title}”.`,
    ],
    action: byQuestionnaire
      ? { label: 'Review the answers', url: links.questionnaireAnswers(input.manuscriptId) }
      : { label: 'Approve or refuse', url: links.shareTab(input.manuscriptId) },
    unsubscribeUrl: links.preferences,
  });
}
