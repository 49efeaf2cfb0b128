import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildComment } from '../admin/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { buildReport } from '../moderation/test-helpers.ts';

/**
 * Staff and private comments on the reader's comment list (issue 14 item 3): a moderator sees a
 * private comment's text only while a report on that comment is open; each such reading is
 * audited and shown to the author as a staff opening.
 */
let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(() => test.close());

it('shows staff a private comment only while a report on it is open, audited', async () => {
  const { db } = test.ctx;
  const author = await buildUser(db);
  const manuscript = await buildManuscript(db, author, {
    visibility: 'public',
    privateComments: true,
  });
  const reader = await buildUser(db);
  const reported = await buildComment(db, manuscript.id, reader, 'Reported private words');
  const other = await buildComment(db, manuscript.id, reader, 'Unreported private words');
  const { client: moderator, user: staff } = await loggedInClient(
    test,
    await buildUser(db, { role: 'moderator' }),
  );
  const textOf = async (id: number) => {
    const response = await moderator.get(`/comments/manuscript/${manuscript.id}`);
    expect(response.statusCode).toBe(200);
    const comment = (
      response.json().comments as Array<{ id: number; comment: string; private: boolean }>
    ).find((candidate) => candidate.id === id);
    return comment;
  };
  const audits = () =>
    db
      .select()
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.actorId, staff.id), eq(schema.auditLog.section, 'comment-opening')),
      );

  // No report: staff are readers like anyone else.
  expect(await textOf(reported.id)).toMatchObject({ private: true });
  expect((await textOf(reported.id))!.comment).not.toContain('Reported private words');
  expect(await audits()).toHaveLength(0);

  const { report } = await buildReport(db, { model: 'comment', elementId: reported.id });
  expect(await textOf(reported.id)).toMatchObject({
    private: false,
    comment: 'Reported private words',
  });
  // Only the reported comment opens.
  expect(await textOf(other.id)).toMatchObject({ private: true });
  const written = await audits();
  expect(written).toHaveLength(1);
  expect(written[0]!.entityIds).toEqual([reported.id]);
  // A reload soon after is the same reading; the author is shown the opening.
  await textOf(reported.id);
  expect(await audits()).toHaveLength(1);
  const openings = await db
    .select()
    .from(schema.staffOpenings)
    .where(eq(schema.staffOpenings.manuscriptId, manuscript.id));
  expect(openings.map((row) => row.staffId)).toEqual([staff.id]);

  // The report closed: private again, for staff as for anyone.
  await db
    .update(schema.reports)
    .set({ status: 'dismissed' })
    .where(eq(schema.reports.id, report.id));
  expect(await textOf(reported.id)).toMatchObject({ private: true });
  // A plain reader never sees it, report or not.
  const { client: member } = await loggedInClient(test);
  await buildReport(db, { model: 'comment', elementId: reported.id });
  const seen = (await member.get(`/comments/manuscript/${manuscript.id}`)).json()
    .comments as Array<{
    id: number;
    private: boolean;
  }>;
  expect(seen.find((comment) => comment.id === reported.id)).toMatchObject({ private: true });
});
