import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_MESSAGES } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { personFor, type Person } from '../invites/test-helpers.ts';
import { sendDueReminders } from './reminders.ts';
import { buildBook } from './test-helpers.ts';

const PUBLIC_URL = 'https://margins.example';
const DAY = 24 * 60 * 60_000;

interface Received {
  to: string[];
  body: string;
}

let smtp: SMTPServer;
let test: TestApp;
let author: Person;
const received: Received[] = [];

/** Quoted-printable, enough to read links and sentences. */
const decode = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          body: decode(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  test = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    publicUrl: PUBLIC_URL,
    jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 },
  });
  author = await personFor(test);
});

afterAll(async () => {
  await test?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const mailsTo = (person: Person) => received.filter((mail) => mail.to.includes(person.user.email));

/** Waits until every queued mail has left the outbox (sent over SMTP). */
async function delivered(): Promise<void> {
  await expect
    .poll(
      async () =>
        (await test.ctx.db.select().from(schema.mailOutbox)).filter(
          (row) => row.status === 'pending',
        ).length,
      { timeout: 15_000, interval: 50 },
    )
    .toBe(0);
}

/** A reader of the book whose read began `daysAgo` days ago, with no reading since. */
async function idleReader(manuscriptId: number, daysAgo: number): Promise<Person> {
  const reader = await personFor(test);
  await test.ctx.db.insert(schema.bookmarks).values({
    userId: reader.user.id,
    manuscriptId,
    createdAt: new Date(Date.now() - daysAgo * DAY),
  });
  return reader;
}

describe('reading reminders', () => {
  it('mails the idle readers only, once per interval, over SMTP, with a one-click unsubscribe', async () => {
    const book = await buildBook(test.ctx.db, author.user, 'The Long Tide');
    const idle = await idleReader(book.id, 10);
    const recent = await idleReader(book.id, 2);
    const finished = await idleReader(book.id, 10);
    const stopped = await idleReader(book.id, 10);
    const left = await idleReader(book.id, 10);
    const noReminders = await idleReader(book.id, 10);
    const active = await idleReader(book.id, 10);
    await finished.client.post(`/manuscript/${book.id}/complete`);
    await stopped.client.post(`/manuscript/${book.id}/reading/stop`, { reason: 'no_time' });
    await left.client.delete(`/bookmark/${book.id}`);
    await noReminders.client.post('/profile/notification/preferences', { reminders: [] });
    await active.client.post(`/bookmark/${book.id}/reading`, { blocks: [{ id: 'c1a', ms: 1000 }] });
    const now = new Date();
    // Two runs at once (two processes): one mail.
    const [first, second] = await Promise.all([
      sendDueReminders(test.ctx, now),
      sendDueReminders(test.ctx, now),
    ]);
    expect(first + second).toBe(1);
    await delivered();
    for (const person of [recent, finished, stopped, left, noReminders, active]) {
      expect(mailsTo(person)).toEqual([]);
    }
    const [mail, ...more] = mailsTo(idle);
    expect(more).toEqual([]);
    expect(mail!.body).toContain('It has been more than 7 days since you last read');
    expect(mail!.body).toContain(`${PUBLIC_URL}/manuscript/document/reader/${book.id}`);
    // Already reminded: nothing within the interval, again after it.
    expect(await sendDueReminders(test.ctx, new Date(now.getTime() + 3 * DAY))).toBe(0);
    // Eight days on: the idle reader again, and the two who were recent then are idle now.
    expect(await sendDueReminders(test.ctx, new Date(now.getTime() + 8 * DAY))).toBe(3);
    await delivered();
    expect(mailsTo(idle)).toHaveLength(2);

    // The link needs no login, works once, and turns reminders off; following it changes
    // nothing (a mail scanner may open every link): the page's button, a POST, does it.
    const link = new RegExp(`${PUBLIC_URL}/unsubscribe/([A-Za-z0-9_-]+)`).exec(mail!.body)![1]!;
    // RFC 8058: the mail offers the one-click POST to the same link.
    const headers = mail!.body.slice(0, mail!.body.indexOf('\r\n\r\n')).replace(/\r\n\s+/g, ' ');
    expect(headers).toContain(`List-Unsubscribe: <${PUBLIC_URL}/unsubscribe/${link}>`);
    expect(headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const browser = new TestClient(test.app);
    const page = { headers: { accept: 'text/html' } };
    for (let visit = 0; visit < 2; visit++) {
      const shown = await browser.get(`/unsubscribe/${link}`, page);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain(INSIGHTS_MESSAGES.unsubscribeConfirm);
    }
    const before = (await idle.client.get('/profile/notification/preferences')).json();
    expect(JSON.stringify(before)).not.toContain('"reminders":[]');
    // A mail client's one-click POST: no cookie, no CSRF token, the RFC's form body.
    const oneClick = () =>
      test.app.inject({
        method: 'POST',
        url: `/unsubscribe/${link}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    const done = await oneClick();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ ok: true });
    expect((await oneClick()).statusCode).toBe(410);
    const used = await browser.get(`/unsubscribe/${link}`, page);
    expect(used.statusCode).toBe(410);
    expect(used.body).toContain(INSIGHTS_MESSAGES.unsubscribeUsed);
    expect((await browser.get('/unsubscribe/not-a-token', page)).statusCode).toBe(404);
    const unknown = await test.app.inject({ method: 'POST', url: '/unsubscribe/not-a-token' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(INSIGHTS_MESSAGES.unsubscribeUnknown);
    const preferences = (await idle.client.get('/profile/notification/preferences')).json();
    expect(JSON.stringify(preferences)).toContain('"reminders":[]');
    // The others are due again; the reader who unsubscribed is not.
    expect(await sendDueReminders(test.ctx, new Date(now.getTime() + 20 * DAY))).toBe(2);
    await delivered();
    expect(mailsTo(idle)).toHaveLength(2);
  });

  it("follows the author's setting: other days, or off", async () => {
    const book = await buildBook(test.ctx.db, author.user);
    const reader = await idleReader(book.id, 4);
    const now = new Date();
    await author.client.put(`/manuscript/${book.id}/insights/settings`, { reminder_days: null });
    expect(await sendDueReminders(test.ctx, now)).toBe(0);
    await author.client.put(`/manuscript/${book.id}/insights/settings`, { reminder_days: 3 });
    expect(await sendDueReminders(test.ctx, now)).toBe(1);
    await delivered();
    expect(mailsTo(reader)).toHaveLength(1);
  });

  it('lets the author nudge one reader by hand, rate-limited', async () => {
    const book = await buildBook(test.ctx.db, author.user, 'Nudged');
    const reader = await idleReader(book.id, 0);
    const done = await idleReader(book.id, 0);
    await done.client.post(`/manuscript/${book.id}/complete`);
    const nudge = (person: Person) =>
      author.client.post(`/manuscript/${book.id}/insights/readers/${person.user.id}/nudge`);
    const sent = await nudge(reader);
    expect(sent.statusCode, sent.body).toBe(200);
    await delivered();
    expect(mailsTo(reader)[0]!.body).toContain('wondered how you are getting on with');
    const again = await nudge(reader);
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toBe(INSIGHTS_MESSAGES.nudgeTooSoon);
    const finished = await nudge(done);
    expect(finished.statusCode).toBe(400);
    expect(finished.json().error).toBe(INSIGHTS_MESSAGES.nudgeFinished);
    const stranger = await personFor(test);
    expect((await nudge(stranger)).statusCode).toBe(404);
    const [state] = await test.ctx.db
      .select()
      .from(schema.readingStates)
      .where(eq(schema.readingStates.userId, reader.user.id));
    expect(state!.lastRemindedAt).toBeInstanceOf(Date);
  });
});
