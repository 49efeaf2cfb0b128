// The daily reminder job on its pg-boss schedule, with two worker processes on one PostgreSQL
// database (issue 15: "one run across processes"). Two processes on one database need
// PostgreSQL (the embedded database belongs to one process): this runs in the PostgreSQL leg
// (TEST_DATABASE_URL) and is skipped on PGlite.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_CRON } from '@margins/common';
import { buildApp } from '../../app.ts';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { personFor } from '../invites/test-helpers.ts';
import { readingRemindersJob } from './reminders.ts';
import { buildBook } from './test-helpers.ts';

const DAY = 24 * 60 * 60_000;

describe.runIf(!!process.env.TEST_DATABASE_URL)(
  'the reminder schedule with two worker processes (PostgreSQL)',
  () => {
    let smtp: SMTPServer;
    let test: TestApp;
    const received: string[][] = [];

    beforeAll(async () => {
      smtp = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        authOptional: true,
        logger: false,
        onData(stream, session, callback) {
          stream.resume();
          stream.on('end', () => {
            received.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
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
      await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
    });

    it('runs the daily job once and mails each idle reader once', async () => {
      const author = await personFor(test);
      const book = await buildBook(test.ctx.db, author.user);
      const idle = await Promise.all([1, 2].map(() => personFor(test)));
      for (const reader of idle) {
        expect((await reader.client.post(`/bookmark/${book.id}`)).statusCode).toBe(200);
        const batch = { blocks: [{ id: 'c1a', ms: 5000 }] };
        expect((await reader.client.post(`/bookmark/${book.id}/reading`, batch)).statusCode).toBe(
          200,
        );
      }
      await test.ctx.db
        .update(schema.readingStates)
        .set({ lastActiveAt: new Date(Date.now() - 10 * DAY) });

      // A second process: its own pg-boss instance, timekeeper and workers on the same database.
      const second = await buildApp({ ...test.ctx.config, role: 'worker' }, test.database);
      try {
        // The schedule both timekeepers share, due every minute for the test: each checks it
        // every 30 s and files the occurrence under one singleton key.
        const job = readingRemindersJob.id;
        await test.ctx.db.execute(
          sql`update pgboss.schedule set cron = '* * * * *' where name = ${job}`,
        );
        const deadline = Date.now() + 110_000;
        while (received.length < idle.length && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        // Back to daily, then time for a second run, had one been filed.
        await test.ctx.db.execute(
          sql`update pgboss.schedule set cron = ${REMINDER_CRON} where name = ${job}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const runs = (await test.ctx.db.execute(
          sql`select count(*)::integer as count from pgboss.job where name = ${job}`,
        )) as unknown as { rows: Array<{ count: number }> };
        expect(runs.rows[0]!.count).toBe(1);
        const recipients = received.flat().sort();
        expect(recipients).toEqual(idle.map((reader) => reader.user.email).sort());
      } finally {
        await second.close();
      }
    }, 150_000);
  },
);
