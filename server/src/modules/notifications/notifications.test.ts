import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invite } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { deliverOutboxMail, messageIdOf } from './delivery.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  buildSurvey,
  HALF_ANSWERS,
  personFor,
  RIGHT_ANSWERS,
  type Person,
} from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

const PUBLIC_URL = 'https://margins.example';
const PREFERENCES = `${PUBLIC_URL}/profile/notification/preferences`;

interface Received {
  to: string[];
  subject: string;
  messageId: string | undefined;
  /** The decoded text and HTML parts, one after the other. */
  body: string;
}

let smtp: SMTPServer;
let test: TestApp;
let author: Person;
const received: Received[] = [];
/** Recipients whose next delivery attempt the server refuses (once each). */
const refuseOnce = new Set<string>();
const attemptsTo = new Map<string, number>();

/** Decodes quoted-printable (and RFC 2047 words) well enough to read links and sentences. */
function decode(raw: string): string {
  const bytes: number[] = [];
  const soft = raw.replace(/=\r?\n/g, '');
  for (let index = 0; index < soft.length; index++) {
    const hex = soft.slice(index + 1, index + 3);
    if (soft[index] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(soft[index]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, '')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_, word: string) => decode(word.replace(/_/g, ' ')))
    .trim();
}

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address;
      attemptsTo.set(to, (attemptsTo.get(to) ?? 0) + 1);
      if (refuseOnce.delete(to)) {
        callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: subjectOf(raw),
          messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim(),
          body: decode(raw),
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
    jobs: {
      ...DEFAULT_JOB_SETTINGS,
      pollingSeconds: 0.5,
      retryDelaySeconds: 1,
      retryDelayMaxSeconds: 1,
      superviseSeconds: 1,
    },
  });
  author = await personFor(test);
});
afterAll(async () => {
  await test?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** The first mail to this address (waits for it). */
async function mailTo(email: string, subject?: RegExp, timeout = 15_000): Promise<Received> {
  let found: Received | undefined;
  await expect
    .poll(
      () =>
        (found = received.find(
          (mail) => mail.to.includes(email) && (!subject || subject.test(mail.subject)),
        )),
      { timeout, interval: 50 },
    )
    .toBeDefined();
  return found!;
}

const outboxTo = (email: string) =>
  test.ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, email));

describe('notification mails over SMTP', () => {
  it('sends every attempt at one mail with the same Message-ID: a retry after a crash is the same message', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, { title: 'Twice Told' });
    const reader = await personFor(test);
    await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.handle,
    });
    const first = await mailTo(reader.user.email);
    await expect.poll(async () => (await outboxTo(reader.user.email))[0]?.status).toBe('sent');
    const [row] = await outboxTo(reader.user.email);
    expect(first.messageId).toBe(messageIdOf(test.ctx.config, row!));
    // A worker killed after the relay took the mail, before it was marked sent: the retry sends again.
    await test.ctx.db
      .update(schema.mailOutbox)
      .set({ status: 'pending' })
      .where(eq(schema.mailOutbox.id, row!.id));
    await deliverOutboxMail(test.ctx, row!.id);
    const copies = received.filter((mail) => mail.to.includes(reader.user.email));
    expect(copies.map((mail) => mail.messageId)).toEqual([first.messageId, first.messageId]);
    // Once marked sent, an attempt sends nothing.
    await deliverOutboxMail(test.ctx, row!.id);
    expect(received.filter((mail) => mail.to.includes(reader.user.email))).toHaveLength(2);
  });

  it('mails an invitee (invited_to_document) a working share link and an unsubscribe link', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, { title: 'Tidewater' });
    const reader = await personFor(test);
    const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.handle,
    });
    expect(response.statusCode, response.body).toBe(200);
    const invite = response.json().invite as Invite;
    const mail = await mailTo(reader.user.email);
    expect(mail.subject).toBe(`${author.user.displayName} invited you to read “Tidewater”`);
    expect(mail.body).toContain(`${PUBLIC_URL}/share/${invite.invite_code!.code}`);
    expect(mail.body).toContain(`href="${PUBLIC_URL}/share/${invite.invite_code!.code}"`);
    expect(mail.body).toContain(PREFERENCES);
    await expect.poll(async () => (await outboxTo(reader.user.email))[0]?.status).toBe('sent');

    // The link works: its landing offers the invite, one click accepts it and opens the reader.
    const landing = await reader.client.get(`/share/${invite.invite_code!.code}`, {
      headers: { accept: 'text/html' },
    });
    expect(landing.statusCode).toBe(200);
    const accepted = await reader.client.post(`/share/${invite.invite_code!.code}/accept`);
    expect(accepted.json()).toEqual({ redirect: `/manuscript/document/reader/${manuscript.id}` });
  });

  it('sends nothing a preference turned off', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    const reader = await personFor(test);
    const saved = await reader.client.post('/profile/notification/preferences', {
      invited_to_document: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const invited = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.handle,
    });
    expect(invited.statusCode).toBe(200);
    expect(await outboxTo(reader.user.email)).toEqual([]);
  });

  it('mails the author when a reader awaits approval, and the reader once approved', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, {
      visibility: 'logged_in',
      title: 'Harbour Lights',
    });
    await buildSurvey(test.ctx.db, manuscript.id);
    const reader = await personFor(test);
    await reader.client.post(`/manuscript/${manuscript.id}/survey/questionaire`, {
      user_id: reader.user.id,
      answers: HALF_ANSWERS,
    });
    const toAuthor = await mailTo(author.user.email, /waiting for your approval/);
    expect(toAuthor.subject).toBe(`${reader.user.displayName} is waiting for your approval`);
    expect(toAuthor.body).toContain(
      `${PUBLIC_URL}/manuscript/${manuscript.id}/survey/questionaire/responses`,
    );
    expect(toAuthor.body).toContain(PREFERENCES);

    const { answers } = (
      await author.client.get(`/manuscript/${manuscript.id}/survey/questionaire/responses`)
    ).json();
    await author.client.get(`/manuscript/survey/answer/${answers[0].id}/approve`);
    const toReader = await mailTo(reader.user.email, /approved/);
    expect(toReader.subject).toBe("You're approved to read “Harbour Lights”");
    expect(toReader.body).toContain(`${PUBLIC_URL}/manuscript/document/reader/${manuscript.id}`);
    expect(toReader.body).toContain(
      'Your questionnaire answers for “Harbour Lights” were approved.',
    );
  });

  it('mails a reader approved by the score at once', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, { visibility: 'public' });
    await buildSurvey(test.ctx.db, manuscript.id);
    const reader = await personFor(test);
    const result = await reader.client.post(`/manuscript/${manuscript.id}/survey/questionaire`, {
      user_id: reader.user.id,
      answers: RIGHT_ANSWERS,
    });
    expect(result.json().approved).toBe(true);
    const mail = await mailTo(reader.user.email, /approved/);
    expect(mail.body).toContain(`${PUBLIC_URL}/manuscript/document/reader/${manuscript.id}`);
  });

  it('mails the author an access request and the reader its approval', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, {
      visibility: 'restricted',
    });
    const link = (
      await author.client.post(`/manuscript/${manuscript.id}/invite/link`, { access: 'restricted' })
    ).json().invite as Invite;
    const reader = await personFor(test);
    const request = (await reader.client.post(`/share/${link.invite_code!.code}/request`)).json()
      .invite as Invite;
    const toAuthor = await mailTo(author.user.email, new RegExp(reader.user.displayName));
    expect(toAuthor.body).toContain(`${PUBLIC_URL}/dashboard#manuscript-${manuscript.id}-share`);
    await author.client.post(`/manuscript/${manuscript.id}/access/${request.id}/approve`);
    const toReader = await mailTo(reader.user.email, /approved/);
    expect(toReader.body).toContain('was approved');
  });

  it('mails an address without an account a sign-up link that comes back to the invite', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user, { title: 'Saltmarsh' });
    const email = `someone-${Date.now()}@example.test`;
    const invite = (
      await author.client.post(`/manuscript/${manuscript.id}/invite/user`, { email })
    ).json().invite as Invite;
    const mail = await mailTo(email);
    const next = encodeURIComponent(`/share/${invite.invite_code!.code}`);
    expect(mail.body).toContain(`${PUBLIC_URL}/auth/signup?next=${next}`);
    expect(mail.body).not.toContain(PREFERENCES);
  });

  it('retries a refused delivery in a job, then delivers it', { timeout: 60_000 }, async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    const reader = await personFor(test);
    refuseOnce.add(reader.user.email);
    await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.handle,
    });
    // A delayed retry is found by the queue's polling (up to its backstop interval).
    await mailTo(reader.user.email, undefined, 45_000);
    expect(attemptsTo.get(reader.user.email)).toBe(2);
    await expect
      .poll(async () => (await outboxTo(reader.user.email))[0])
      .toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('writes no mail when the change fails', async () => {
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    const reader = await personFor(test);
    const url = `/manuscript/${manuscript.id}/invite/user`;
    await author.client.post(url, { username: reader.user.handle });
    await mailTo(reader.user.email);
    expect((await author.client.post(url, { username: reader.user.handle })).statusCode).toBe(400);
    expect(await outboxTo(reader.user.email)).toHaveLength(1);
  });
});
