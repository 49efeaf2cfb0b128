import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import {
  buildComment,
  buildReportReason,
  staffClients,
  type StaffClients,
} from './test-helpers.ts';

/**
 * Staff do not read private writing at will (issue 14 item 3): the admin lists show a private
 * comment's text (a manuscript with private comments, or a private or restricted one) only
 * while a report on it or its manuscript is open.
 */

let test: TestApp;
let people: StaffClients;
beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
});
afterAll(() => test.close());

const commentText = async (id: number) =>
  (await people.moderator.client.get(`/admin/api/comment/${id}`)).json().item.comment;

it('hides a private comment until a report is open, and again once it is dismissed', async () => {
  const { db } = test.ctx;
  const author = await buildUser(db);
  const open = await buildManuscript(db, author, { visibility: 'public' });
  const secret = await buildManuscript(db, author, { visibility: 'private' });
  const privateNotes = await buildManuscript(db, author, {
    visibility: 'public',
    privateComments: true,
  });
  const onOpen = await buildComment(db, open.id, author, 'Public words');
  const onSecret = await buildComment(db, secret.id, author, 'Secret words');
  const onPrivate = await buildComment(db, privateNotes.id, author, 'Private note');
  expect(await commentText(onOpen.id)).toBe('Public words');
  expect(await commentText(onSecret.id)).toBeNull();
  expect(await commentText(onPrivate.id)).toBeNull();
  // Searching cannot find hidden text either.
  const search = (await people.admin.client.get('/admin/api/comment?q=Secret')).json();
  expect(search.total).toBe(0);

  const [report] = await db
    .insert(schema.reports)
    .values({
      modelName: 'comment',
      reportElementId: onSecret.id,
      reasonId: (await buildReportReason(db)).id,
      reporterId: people.member.user.id,
    })
    .returning();
  expect(await commentText(onSecret.id)).toBe('Secret words');
  const queue = (
    await people.moderator.client.get(`/admin/api/moderation-report/${report!.id}`)
  ).json();
  expect(queue.item.element).toBe('Secret words');

  await people.moderator.client.post('/admin/api/moderation-report/bulk', {
    action: 'dismiss',
    ids: [report!.id],
  });
  expect(await commentText(onSecret.id)).toBeNull();
  const closed = (
    await people.moderator.client.get(`/admin/api/moderation-report/${report!.id}`)
  ).json();
  expect(closed.item).toMatchObject({
    status: 'dismissed',
    element: null,
    resolved_by_id: people.moderator.user.id,
  });
});

it('deletes a comment as a tombstone, as the writer’s own delete does', async () => {
  const { db } = test.ctx;
  const author = await buildUser(db);
  const manuscript = await buildManuscript(db, author, { visibility: 'public' });
  const comment = await buildComment(db, manuscript.id, author);
  expect((await people.admin.client.delete(`/admin/api/comment/${comment.id}`)).statusCode).toBe(
    200,
  );
  const [row] = await db.select().from(schema.comments).where(eq(schema.comments.id, comment.id));
  expect(row!.deletedAt).not.toBeNull();
  expect(
    (await people.admin.client.get(`/admin/api/comment/${comment.id}`)).json().item.deleted_at,
  ).not.toBeNull();
});

it('counts each row’s own children in its columns (correlated to the outer row)', async () => {
  const { db } = test.ctx;
  const author = await buildUser(db);
  await buildManuscript(db, author);
  await buildManuscript(db, author);
  const item = (await people.admin.client.get(`/admin/api/user/${author.id}`)).json().item;
  expect(item.manuscripts).toBe(2);
  const sorted = (
    await people.admin.client.get('/admin/api/user?sort=manuscripts&order=desc&per_page=100')
  ).json();
  const counts = sorted.items.map((user: { manuscripts: number }) => user.manuscripts);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  expect(counts[0]).toBeGreaterThan(0);
});
