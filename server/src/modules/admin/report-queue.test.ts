import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { buildReport } from '../moderation/test-helpers.ts';
import { buildComment, staffClients, type StaffClients } from './test-helpers.ts';

/**
 * The report queue as the moderation-report section's own view (GET …/views/queue): grouped by
 * the reported element, newest first, with its text and context, and the queue's actions.
 */

let test: TestApp;
let people: StaffClients;
beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
});
afterAll(() => test.close());

const QUEUE = '/admin/api/moderation-report/views/queue';

describe('the report queue view', () => {
  it('is declared in _meta and refused to everyone who is not staff', async () => {
    const meta = (await people.moderator.client.get('/admin/api/_meta')).json();
    const section = meta.sections.find(
      (candidate: { name: string }) => candidate.name === 'moderation-report',
    );
    expect(section.views).toEqual([{ name: 'queue', label: 'Report queue' }]);
    expect((await people.member.client.get(QUEUE)).statusCode).toBe(404);
    expect((await people.admin.client.get('/admin/api/genre/views/queue')).statusCode).toBe(404);
    expect(
      (await people.admin.client.get('/admin/api/moderation-report/views/nope')).statusCode,
    ).toBe(404);
    const bad = await people.moderator.client.get(`${QUEUE}?status=everything&per_page=0`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['per_page', 'status']);
  });

  it('groups reports by element, newest first, with the text and its context', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db, { displayName: 'Quill Author' });
    const manuscript = await buildManuscript(db, author, {
      title: 'The Queue Book',
      summary: 'A summary of the queue book.',
    });
    const writer = await buildUser(db, { displayName: 'Comment Writer' });
    const comment = await buildComment(db, manuscript.id, writer, 'Rude words here');
    await buildReport(db, { model: 'manuscript', elementId: manuscript.id, description: 'Spam' });
    await buildReport(db, { model: 'comment', elementId: comment.id, description: 'First' });
    await buildReport(db, { model: 'comment', elementId: comment.id, description: 'Second' });

    const response = await people.moderator.client.get(`${QUEUE}?per_page=2`);
    expect(response.statusCode).toBe(200);
    const queue = response.json();
    expect(queue.items).toHaveLength(2);
    const [first, second] = queue.items;
    expect(first).toMatchObject({
      model_name: 'comment',
      element_id: comment.id,
      text: 'Rude words here',
      context: 'On “Once” in The Queue Book',
      manuscript_id: manuscript.id,
      author: { id: writer.id, display_name: 'Comment Writer' },
      open_count: 2,
    });
    expect(first.reports.map((report: { description: string }) => report.description)).toEqual([
      'Second',
      'First',
    ]);
    expect(second).toMatchObject({
      model_name: 'manuscript',
      element_id: manuscript.id,
      text: 'The Queue Book\n\nA summary of the queue book.',
      context: 'By Quill Author',
      author: { id: author.id },
      open_count: 1,
    });
  });

  it('hides a private comment once its reports are closed', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db);
    const manuscript = await buildManuscript(db, author, { privateComments: true });
    const comment = await buildComment(db, manuscript.id, author, 'Whispered note');
    const { report } = await buildReport(db, { model: 'comment', elementId: comment.id });
    const find = async () =>
      (await people.moderator.client.get(`${QUEUE}?status=all&per_page=100`))
        .json()
        .items.find((item: { element_id: number }) => item.element_id === comment.id);
    expect((await find()).text).toBe('Whispered note');
    const dismissed = await people.moderator.client.post('/admin/api/moderation-report/bulk', {
      action: 'dismiss',
      ids: [report.id],
    });
    expect(dismissed.json()).toEqual({ affected: 1 });
    expect((await find()).text).not.toContain('Whispered');
  });
});

describe('the queue actions', () => {
  const bulk = (action: string, ids: number[], reason?: string) =>
    people.moderator.client.post('/admin/api/moderation-report/bulk', {
      action,
      ids,
      ...(reason ? { input: { reason } } : {}),
    });

  it('flags, clears, deletes a comment and suspends its writer, each audited', async () => {
    const { db } = test.ctx;
    const writer = await buildUser(db);
    const manuscript = await buildManuscript(db, await buildUser(db));
    const comment = await buildComment(db, manuscript.id, writer);
    const commentRow = async () =>
      (await db.select().from(schema.comments).where(eq(schema.comments.id, comment.id)))[0]!;

    const first = (await buildReport(db, { model: 'comment', elementId: comment.id })).report;
    expect((await bulk('flag', [first.id])).statusCode).toBe(400);
    expect((await bulk('flag', [first.id], 'Insults')).json()).toEqual({ affected: 1 });
    expect(await commentRow()).toMatchObject({ moderationFlag: true, moderationReason: 'Insults' });
    expect((await bulk('clear-flag', [first.id])).json()).toEqual({ affected: 1 });
    expect(await commentRow()).toMatchObject({ moderationFlag: false, moderationReason: null });

    const second = (await buildReport(db, { model: 'comment', elementId: comment.id })).report;
    expect((await bulk('delete-comment', [second.id])).json()).toEqual({ affected: 1 });
    expect((await commentRow()).deletedAt).not.toBeNull();
    const [closed] = await db.select().from(schema.reports).where(eq(schema.reports.id, second.id));
    expect(closed!.status).toBe('resolved');

    const third = (await buildReport(db, { model: 'comment', elementId: comment.id })).report;
    expect((await bulk('suspend-author', [third.id], 'Repeated abuse')).json()).toEqual({
      affected: 1,
    });
    const [suspended] = await db.select().from(schema.users).where(eq(schema.users.id, writer.id));
    expect(suspended!.suspendedAt).not.toBeNull();
    expect(suspended!.suspensionReason).toBe('Repeated abuse');

    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(eq(schema.auditLog.section, 'moderation-report'));
    const actions = audit
      .filter((row) => [first.id, second.id, third.id].some((id) => row.entityIds.includes(id)))
      .map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        expect.stringContaining('flag'),
        expect.stringContaining('clear-flag'),
        expect.stringContaining('delete-comment'),
        expect.stringContaining('suspend-author'),
      ]),
    );
  });

  it('never suspends staff through a report', async () => {
    const { db } = test.ctx;
    const manuscript = await buildManuscript(db, people.admin.user);
    const { report } = await buildReport(db, { model: 'manuscript', elementId: manuscript.id });
    expect((await bulk('suspend-author', [report.id])).json()).toEqual({ affected: 0 });
  });
});
