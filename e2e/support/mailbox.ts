import { expect, type APIRequestContext } from '@playwright/test';

/** One mail of the development mailbox (GET /dev/mail, API.md). */
interface DevMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  created: string;
}

/** Reads the server's development mailbox over HTTP. */
export class Mailbox {
  constructor(private readonly request: APIRequestContext) {}

  /** Every kept mail, newest first. */
  async messages(): Promise<DevMail[]> {
    const response = await this.request.get('/dev/mail', {
      headers: { accept: 'application/json' },
    });
    expect(response.status(), 'GET /dev/mail (is NODE_ENV development, SMTP_URL unset?)').toBe(200);
    const body = (await response.json()) as { messages: DevMail[] };
    return body.messages;
  }

  /** Waits for the newest mail to an address (and, if given, with a matching subject). */
  async waitFor(to: string, subject?: string | RegExp, timeout = 10_000): Promise<DevMail> {
    const matches = (mail: DevMail) =>
      mail.to.toLowerCase() === to.toLowerCase() &&
      (subject === undefined ||
        (typeof subject === 'string'
          ? mail.subject.includes(subject)
          : subject.test(mail.subject)));
    let found: DevMail | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.messages()).find(matches);
          return found !== undefined;
        },
        { message: `a mail to ${to}${subject ? ` about ${String(subject)}` : ''}`, timeout },
      )
      .toBe(true);
    return found!;
  }
}

/**
 * The first link in a mail whose path starts with pathPrefix, as a path + query that works
 * against the test server (mails carry PUBLIC_URL, which is the test server's own address).
 */
export function linkIn(mail: DevMail, pathPrefix = '/'): string {
  const candidates = [
    ...mail.text.matchAll(/https?:\/\/[^\s"'<>]+/g),
    ...mail.html.matchAll(/href="([^"]+)"/g),
  ].map((match) => (match[1] ?? match[0]).replace(/&amp;/g, '&'));
  for (const candidate of candidates) {
    const url = new URL(candidate, 'http://mail.invalid');
    if (url.pathname.startsWith(pathPrefix)) return url.pathname + url.search;
  }
  throw new Error(`no link to ${pathPrefix} in the mail "${mail.subject}":\n${mail.text}`);
}
