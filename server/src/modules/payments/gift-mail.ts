import { randomBytes } from 'node:crypto';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml } from '../../lib/mail.ts';

/** Letters and digits a person can read back without confusing them (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A gift code like "MRG-7K4P-QX2D-9HWT" (60 bits of randomness). */
export function newGiftCode(): string {
  const bytes = randomBytes(12);
  const letters = [...bytes].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
  return `MRG-${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

/** The mail that carries a gift's code to its recipient. */
export function giftMail(
  baseUrl: string,
  to: string,
  code: string,
  productName: string,
  interval: 'month' | 'year',
): MailMessage {
  const link = `${baseUrl}/membercontent#redeem`;
  const period = interval === 'year' ? 'a year' : 'a month';
  return {
    to,
    subject: `You have been given ${productName} on Margins`,
    text: `Someone gave you ${period} of ${productName} on Margins.\n\nYour gift code: ${code}\n\nRedeem it, logged in, at ${link}\n`,
    html: `<p>Someone gave you ${period} of <strong>${escapeHtml(productName)}</strong> on Margins.</p><p>Your gift code: <strong>${escapeHtml(code)}</strong></p><p>Redeem it, logged in, at <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>.</p>`,
  };
}
