import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildUser } from '../../test/factories.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { clearManuscriptFlag, flagManuscript } from './index.ts';

// The author's mails through real SMTP: what reaches the inbox, not only the outbox.
let smtp: SMTPServer;

/** Decodes quoted-printable soft breaks and escapes well enough to read sentences. */
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
let test: TestApp;
const inbox: Array<{ to: string[]; data: string }> = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: decode(Buffer.concat(chunks).toString('utf8')),
        });
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

/** Waits until the outbox has nothing pending; then the mails that reached `address`. */
async function deliveredTo(address: string) {
  await expect
    .poll(
      async () => {
        const [row] = await test.ctx.db
          .select({ n: count() })
          .from(schema.mailOutbox)
          .where(eq(schema.mailOutbox.status, 'pending'));
        return row!.n;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(0);
  return inbox.filter((mail) => mail.to.includes(address));
}

describe('the author is told by e-mail', () => {
  it('when their manuscript is flagged (with the reason) and when the flag is cleared', async () => {
    const { db } = test.ctx;
    const moderator = await buildUser(db, { role: 'moderator' });
    const author = await buildUser(db);
    const manuscript = await buildManuscript(db, author, {
      visibility: 'public',
      title: 'Harbour Lights',
    });

    await flagManuscript(test.ctx, moderator, manuscript.id, 'Copied text');
    const flagged = await deliveredTo(author.email);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]!.data).toContain(
      'This manuscript was flagged by our moderators. Reason: Copied text',
    );
    expect(flagged[0]!.data).toContain('Copied text');

    await clearManuscriptFlag(test.ctx, moderator, manuscript.id);
    const both = await deliveredTo(author.email);
    expect(both).toHaveLength(2);
    expect(both[1]!.data).toContain('cleared the flag on “Harbour Lights”');
    // Nobody else was written to.
    expect(inbox.filter((mail) => !mail.to.includes(author.email))).toEqual([]);
  });
});
