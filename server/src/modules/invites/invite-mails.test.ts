import type { AddressInfo } from 'node:net';
import { and, count, eq, inArray } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITES_PER_USER_PER_HOUR, MESSAGES, type Invite } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { personFor, type Person } from './test-helpers.ts';

// Invites through real SMTP: what reaches the inbox, not only what the outbox holds.
let smtp: SMTPServer;
let test: TestApp;
const received: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  test = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 },
  });
});
afterAll(async () => {
  await test?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** Waits until the outbox has delivered everything; then the mails that reached this address. */
async function deliveredTo(address: string): Promise<number> {
  await expect
    .poll(
      async () => {
        const [row] = await test.ctx.db
          .select({ n: count() })
          .from(schema.mailOutbox)
          .where(inArray(schema.mailOutbox.status, ['pending']));
        return row!.n;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(0);
  return received.filter((to) => to === address).length;
}

async function invite(author: Person, manuscriptId: number, body: object) {
  return author.client.post(`/manuscript/${manuscriptId}/invite/user`, body);
}

async function inviteAndDelete(author: Person, manuscriptId: number, body: object) {
  const response = await invite(author, manuscriptId, body);
  expect(response.statusCode, response.body).toBe(200);
  const { invite: made } = response.json() as { invite: Invite };
  const removed = await author.client.delete(`/manuscript/invite/${made.id}`);
  expect(removed.statusCode, removed.body).toBe(200);
}

describe('invite mails', () => {
  it('mails an invitee at most once a day per manuscript, however often they are invited', async () => {
    const author = await personFor(test);
    const reader = await personFor(test);
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    for (let round = 0; round < 14; round++) {
      await inviteAndDelete(author, manuscript.id, { username: reader.user.handle });
    }
    const last = await invite(author, manuscript.id, { username: reader.user.handle });
    expect(last.statusCode).toBe(200);
    expect(await deliveredTo(reader.user.email)).toBe(1);

    // Another manuscript is another invite: mailed once too.
    const second = await buildManuscript(test.ctx.db, author.user, { title: 'Another one' });
    await inviteAndDelete(author, second.id, { username: reader.user.handle });
    await inviteAndDelete(author, second.id, { username: reader.user.handle });
    expect(await deliveredTo(reader.user.email)).toBe(2);
  }, 60_000);

  it('mails an address without an account once a day per manuscript', async () => {
    const author = await personFor(test);
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    const email = `newcomer-${Date.now()}@example.com`;
    for (let round = 0; round < 5; round++) {
      await inviteAndDelete(author, manuscript.id, { email });
    }
    expect(await deliveredTo(email)).toBe(1);
  }, 60_000);

  it('never mails an invite to someone who declined, though the invite may wait for them', async () => {
    const author = await personFor(test);
    const reader = await personFor(test);
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    const first = await invite(author, manuscript.id, { username: reader.user.handle });
    expect(await deliveredTo(reader.user.email)).toBe(1);
    const { invite: made } = first.json() as { invite: Invite };
    // A day later, so that only the decline stops the mail.
    await test.ctx.db
      .update(schema.inviteMails)
      .set({ lastMailedAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(schema.inviteMails.manuscriptId, manuscript.id));
    const declined = await reader.client.delete(`/invite/${made.id}`);
    expect(declined.statusCode, declined.body).toBe(200);

    const again = await invite(author, manuscript.id, { username: reader.user.handle });
    expect(again.statusCode, again.body).toBe(200);
    await author.client.delete(
      `/manuscript/invite/${(again.json() as { invite: Invite }).invite.id}`,
    );
    const onceMore = await invite(author, manuscript.id, { username: reader.user.handle });
    expect(onceMore.statusCode, onceMore.body).toBe(200);
    expect(await deliveredTo(reader.user.email)).toBe(1);
    const [pending] = await test.ctx.db
      .select({ n: count() })
      .from(schema.invites)
      .where(
        and(
          eq(schema.invites.manuscriptId, manuscript.id),
          eq(schema.invites.invitedUserId, reader.user.id),
          eq(schema.invites.status, 'pending'),
        ),
      );
    expect(pending!.n).toBe(1);
  }, 60_000);

  it(`refuses a user's invites beyond ${INVITES_PER_USER_PER_HOUR} an hour, with a message`, async () => {
    const author = await personFor(test);
    const reader = await personFor(test);
    const manuscript = await buildManuscript(test.ctx.db, author.user);
    for (let round = 0; round < INVITES_PER_USER_PER_HOUR / 2; round++) {
      await inviteAndDelete(author, manuscript.id, { username: reader.user.handle });
      await inviteAndDelete(author, manuscript.id, { email: `someone-${round}@example.com` });
    }
    const refused = await invite(author, manuscript.id, { username: reader.user.handle });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(MESSAGES.tooManyInvites);
    // Another author is not held back by it.
    const other = await personFor(test);
    const theirs = await buildManuscript(test.ctx.db, other.user);
    expect((await invite(other, theirs.id, { username: reader.user.handle })).statusCode).toBe(200);
  }, 60_000);
});
