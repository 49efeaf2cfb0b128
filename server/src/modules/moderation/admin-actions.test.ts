import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser } from '../../test/factories.ts';
import { staffClients, type StaffClients } from '../admin/test-helpers.ts';
import { buildScene, postComment, sessionClient } from '../comments/test-helpers.ts';
import { pageConfigOf } from '../invites/test-helpers.ts';
import { buildReport } from './test-helpers.ts';

// The moderation services as the admin area runs them: /admin/api bulk actions and the
// feature section, each one audited.
let test: TestApp;
let people: StaffClients;
beforeAll(async () => {
  test = await createTestApp({ invitesEnabled: false });
  people = await staffClients(test);
});
afterAll(async () => test?.close());

const lastAudit = async (section: string) =>
  (
    await test.ctx.db
      .select()
      .from(schema.auditLog)
      .where(eq(schema.auditLog.section, section))
      .orderBy(desc(schema.auditLog.id))
      .limit(1)
  )[0];

describe('moderation from the admin area', () => {
  it('a moderator flags a comment in bulk: readers see it flagged, the write is audited', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const posted = await postComment(scene.writer.client, scene.manuscript.id, 'cedar', 'Spam!');
    const response = await people.moderator.client.post('/admin/api/comment/bulk', {
      action: 'flag',
      ids: [posted.comment.id],
      input: { reason: '  Advertising  ' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ affected: 1 });
    const list = (
      await scene.reader.client.get(`/comments/manuscript/${scene.manuscript.id}`)
    ).json() as {
      comments: Array<{ id: number; moderation_flag: boolean; moderation_reason: string }>;
    };
    expect(list.comments.find((comment) => comment.id === posted.comment.id)).toMatchObject({
      moderation_flag: true,
      moderation_reason: 'Advertising',
    });
    expect(await lastAudit('comment')).toMatchObject({
      actorId: people.moderator.user.id,
      actorRole: 'moderator',
      action: 'flag',
      entityIds: [posted.comment.id],
    });
    // A reason that is only spaces is a field error, not a flag without a reason.
    const blank = await people.moderator.client.post('/admin/api/comment/bulk', {
      action: 'flag',
      ids: [posted.comment.id],
      input: { reason: '   ' },
    });
    expect(blank.statusCode).toBe(400);
  });

  it('a moderator flags from the report queue: the element is flagged and its reports close', async () => {
    const scene = await buildScene(test, { visibility: 'public' });
    const { report } = await buildReport(test.ctx.db, {
      model: 'manuscript',
      elementId: scene.manuscript.id,
    });
    const response = await people.moderator.client.post('/admin/api/moderation-report/bulk', {
      action: 'flag',
      ids: [report.id],
      input: { reason: 'Plagiarism' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const reader = (
      await scene.reader.client.get(`/manuscript/document/reader/${scene.manuscript.id}`)
    ).json();
    expect(reader).toMatchObject({ restricted_moderation: true, moderationReason: 'Plagiarism' });
    const [closed] = await test.ctx.db
      .select()
      .from(schema.reports)
      .where(eq(schema.reports.id, report.id));
    expect(closed!.status).toBe('resolved');
  });

  it('suspends and lifts in bulk: logged out, refused, then back', async () => {
    const member = await sessionClient(test, await buildUser(test.ctx.db));
    const suspend = await people.moderator.client.post('/admin/api/user/bulk', {
      action: 'suspend',
      ids: [member.user.id, people.admin.user.id],
    });
    // Staff are skipped: only the member is suspended.
    expect(suspend.json()).toEqual({ affected: 1 });
    expect((await member.client.get('/user/current/manuscripts')).statusCode).toBe(401);
    const [row] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(and(eq(schema.users.id, member.user.id)));
    expect(row!.suspendedAt).toBeInstanceOf(Date);
    const item = (await people.moderator.client.get(`/admin/api/user/${member.user.id}`)).json();
    expect(item.item.suspended_at).toEqual(row!.suspendedAt!.toISOString());

    const lift = await people.moderator.client.post('/admin/api/user/bulk', {
      action: 'lift-suspension',
      ids: [member.user.id],
    });
    expect(lift.json()).toEqual({ affected: 1 });
    const [after] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, member.user.id));
    expect(after!.suspendedAt).toBeNull();
  });

  it('an admin turns a feature on: the next page says so, without a restart', async () => {
    const page = async () =>
      pageConfigOf(
        await new TestClient(test.app).get('/privacy', { headers: { accept: 'text/html' } }),
      );
    expect((await page()).invitesEnabled).toBe(false);
    const list = (await people.admin.client.get('/admin/api/feature')).json() as {
      items: Array<{ id: number; name: string; enabled: boolean }>;
    };
    const invites = list.items.find((item) => item.name === 'invitesEnabled')!;
    const changed = await people.admin.client.post(`/admin/api/feature/${invites.id}/field`, {
      name: 'enabled',
      value: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await page()).invitesEnabled).toBe(true);
    expect(await lastAudit('feature')).toMatchObject({ action: 'field', entityIds: [invites.id] });
    // Moderators have nothing to do with switches.
    expect((await people.moderator.client.get('/admin/api/feature')).statusCode).toBe(403);
  });
});
