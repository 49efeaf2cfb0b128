import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import {
  buildComment,
  buildReportReason,
  staffClients,
  type StaffClients,
} from './test-helpers.ts';

let test: TestApp;
let people: StaffClients;

beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
});
afterAll(() => test.close());

const admin = () => people.admin.client;
const auditRows = () =>
  test.ctx.db.select().from(schema.auditLog).orderBy(desc(schema.auditLog.id));

describe('create and update', () => {
  it('answers field errors for bad values and fields that cannot be set', async () => {
    const response = await admin().post('/admin/api/user', {
      email: 'not an address',
      display_name: '',
      role: 'emperor',
      password_hash: 'x',
    });
    expect(response.statusCode).toBe(400);
    // A field the form does not take is refused before anything else is looked at.
    expect(response.json().errors).toEqual({ password_hash: [ADMIN_MESSAGES.notWritableField] });
    const values = await admin().post('/admin/api/user', {
      email: 'not an address',
      display_name: '   ',
      role: 'emperor',
    });
    expect(Object.keys(values.json().errors).sort()).toEqual(['display_name', 'email', 'role']);
    const reason = await admin().post('/admin/api/report-reason', {
      reason: 'Fine',
      position: -1,
      active: 'yes',
    });
    expect(Object.keys(reason.json().errors).sort()).toEqual(['active', 'position']);
  });

  it('turns a taken unique value into an error on its field', async () => {
    const taken = await admin().post('/admin/api/user', {
      email: people.member.user.email.toUpperCase(),
      display_name: 'Copy',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual({ email: [ADMIN_MESSAGES.alreadyTaken] });
    const handle = await admin().put(`/admin/api/user/${people.moderator.user.id}`, {
      handle: people.member.user.handle!.toUpperCase(),
    });
    expect(handle.json().errors).toEqual({ handle: [ADMIN_MESSAGES.alreadyTaken] });
  });

  it('creates and updates, answering the item as presented (no secrets)', async () => {
    const created = await admin().post('/admin/api/user', {
      email: ' New.Person@Example.test ',
      display_name: 'New Person',
    });
    expect(created.statusCode).toBe(201);
    const item = created.json().item;
    expect(item).toMatchObject({ email: 'new.person@example.test', role: 'user' });
    expect(JSON.stringify(item)).not.toMatch(/password|argon/i);
    const updated = await admin().put(`/admin/api/user/${item.id}`, { pronouns: 'they/them' });
    expect(updated.json().item).toMatchObject({ id: item.id, pronouns: 'they/them' });
    expect((await admin().put('/admin/api/user/999999', {})).statusCode).toBe(404);
    expect((await admin().get('/admin/api/user/999999')).statusCode).toBe(404);
  });

  it('refuses to delete what is still used, with a message', async () => {
    const reason = await buildReportReason(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, people.member.user);
    await test.ctx.db.insert(schema.reports).values({
      modelName: 'manuscript',
      reportElementId: manuscript.id,
      reasonId: reason.id,
      reporterId: people.member.user.id,
    });
    const response = await admin().delete(`/admin/api/report-reason/${reason.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(ADMIN_MESSAGES.stillUsed);
  });
});

describe('the one-field update', () => {
  it('refuses a field outside the inline allow-list, and bad values', async () => {
    const url = `/admin/api/user/${people.member.user.id}/field`;
    const email = await admin().post(url, { name: 'email', value: 'x@example.test' });
    expect(email.statusCode).toBe(400);
    expect(email.json().errors).toEqual({ name: [ADMIN_MESSAGES.notInlineField] });
    const secret = await admin().post(url, { name: 'password_hash', value: 'x' });
    expect(secret.json().errors).toEqual({ name: [ADMIN_MESSAGES.notInlineField] });
    const proto = await admin().post(url, { name: 'constructor', value: 'x' });
    expect(proto.statusCode).toBe(400);
    const bad = await admin().post(url, { name: 'role', value: 'emperor' });
    expect(Object.keys(bad.json().errors)).toEqual(['role']);
    const row = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, people.member.user.id));
    expect(row[0]!.email).toBe(people.member.user.email);
  });

  it('sets an allowed field and records it', async () => {
    const url = `/admin/api/user/${people.member.user.id}/field`;
    const response = await admin().post(url, { name: 'display_name', value: 'Inline Name' });
    expect(response.json().item.display_name).toBe('Inline Name');
    const [row] = await auditRows();
    expect(row).toMatchObject({
      actorId: people.admin.user.id,
      actorRole: 'admin',
      section: 'user',
      action: 'field',
      entityIds: [people.member.user.id],
    });
    expect(row!.before).toMatchObject({ display_name: people.member.user.displayName });
    expect(row!.after).toMatchObject({ display_name: 'Inline Name' });
  });
});

describe('promote, demote, and the last admin', () => {
  it('lets only an admin change roles, and never demotes the last admin', async () => {
    const { db } = test.ctx;
    const promote = await people.moderator.client.put(`/admin/api/user/${people.member.user.id}`, {
      role: 'admin',
    });
    expect(promote.statusCode).toBe(403);
    // Two admins: one may be demoted; then the other is the last.
    const second = await buildUser(db, { role: 'admin' });
    const demote = await admin().put(`/admin/api/user/${second.id}`, { role: 'moderator' });
    expect(demote.json().item.role).toBe('moderator');
    for (const attempt of [
      () => admin().put(`/admin/api/user/${people.admin.user.id}`, { role: 'user' }),
      () =>
        admin().post(`/admin/api/user/${people.admin.user.id}/field`, {
          name: 'role',
          value: 'moderator',
        }),
      () => admin().delete(`/admin/api/user/${people.admin.user.id}`),
    ]) {
      const response = await attempt();
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ role: [ADMIN_MESSAGES.lastAdmin] });
    }
    const [me] = await db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, people.admin.user.id));
    expect(me!.role).toBe('admin');
    // Promoting someone else first makes the demotion possible.
    await admin().put(`/admin/api/user/${second.id}`, { role: 'admin' });
    const promoted = await loggedInClient(test, second);
    const now = await promoted.client.put(`/admin/api/user/${people.admin.user.id}`, {
      role: 'admin',
    });
    expect(now.statusCode).toBe(200);
  });
});

describe('bulk actions', () => {
  it('flags manuscripts with a reason: one transaction, one audit row with every id', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db);
    const manuscripts = await Promise.all([1, 2, 3].map(() => buildManuscript(db, author)));
    const ids = manuscripts.map((manuscript) => manuscript.id);
    const noReason = await people.moderator.client.post('/admin/api/manuscript/bulk', {
      action: 'flag',
      ids,
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual({ reason: [ADMIN_MESSAGES.reasonRequired] });
    const before = (await auditRows()).length;
    const response = await people.moderator.client.post('/admin/api/manuscript/bulk', {
      action: 'flag',
      ids: [...ids, 999_999],
      input: { reason: 'Plagiarised' },
    });
    expect(response.json()).toEqual({ affected: 3 });
    const rows = await db.select().from(schema.manuscripts);
    for (const row of rows.filter((candidate) => ids.includes(candidate.id))) {
      expect(row).toMatchObject({ moderationFlag: true, moderationReason: 'Plagiarised' });
    }
    const audit = await auditRows();
    expect(audit.length).toBe(before + 1);
    expect(audit[0]).toMatchObject({
      actorId: people.moderator.user.id,
      actorRole: 'moderator',
      section: 'manuscript',
      action: 'flag',
    });
    expect([...audit[0]!.entityIds].sort()).toEqual([...ids].sort());
    const cleared = await people.moderator.client.post('/admin/api/manuscript/bulk', {
      action: 'clear-flag',
      ids,
    });
    expect(cleared.json()).toEqual({ affected: 3 });
  });

  it('refuses unknown actions, actions of another role, and bad id lists', async () => {
    const unknown = await admin().post('/admin/api/user/bulk', { action: 'explode', ids: [1] });
    expect(unknown.json().errors).toEqual({ action: [ADMIN_MESSAGES.unknownAction] });
    const adminOnly = await people.moderator.client.post('/admin/api/user/bulk', {
      action: 'delete',
      ids: [people.member.user.id],
    });
    expect(adminOnly.statusCode).toBe(403);
    for (const ids of [[], Array.from({ length: 1001 }, (_, index) => index + 1), ['x'], [0]]) {
      const response = await admin().post('/admin/api/user/bulk', { action: 'suspend', ids });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.ids).toBeDefined();
    }
  });

  it('works a report: flag the reported comment, resolve its reports; dismiss another', async () => {
    const { db } = test.ctx;
    const manuscript = await buildManuscript(db, people.member.user, { visibility: 'public' });
    const comment = await buildComment(db, manuscript.id, people.member.user, 'Rude words');
    const reason = await buildReportReason(db);
    const [first, second] = await db
      .insert(schema.reports)
      .values(
        [people.admin.user, people.moderator.user].map((reporter) => ({
          modelName: 'comment' as const,
          reportElementId: comment.id,
          reasonId: reason.id,
          reporterId: reporter.id,
        })),
      )
      .returning();
    const queue = (
      await people.moderator.client.get(
        '/admin/api/moderation-report?status=open&model_name=comment',
      )
    ).json();
    expect(queue.items.find((item: { id: number }) => item.id === first!.id)).toMatchObject({
      element: 'Rude words',
      reason_id: reason.id,
    });
    const flagged = await people.moderator.client.post('/admin/api/moderation-report/bulk', {
      action: 'flag',
      ids: [first!.id],
      input: { reason: 'Be kind' },
    });
    // One element flagged (its two reports are resolved with it).
    expect(flagged.json()).toEqual({ affected: 1 });
    const [row] = await db.select().from(schema.comments).where(eq(schema.comments.id, comment.id));
    expect(row).toMatchObject({ moderationFlag: true, moderationReason: 'Be kind' });
    const reports = await db
      .select()
      .from(schema.reports)
      .where(
        and(
          eq(schema.reports.modelName, 'comment'),
          eq(schema.reports.reportElementId, comment.id),
        ),
      );
    expect(reports.map((report) => report.status)).toEqual(['resolved', 'resolved']);
    expect(second).toBeDefined();
    const models = (
      await people.moderator.client.get('/admin/api/moderation-report/models')
    ).json();
    expect(models.models.map((model: { name: string }) => model.name).sort()).toEqual([
      'comment',
      'manuscript',
    ]);
  });

  it("deletes a comment or a reply as its writer's own delete does (one command)", async () => {
    const { db } = test.ctx;
    const manuscript = await buildManuscript(db, people.member.user, { visibility: 'public' });
    const comment = await buildComment(db, manuscript.id, people.member.user);
    const [reply] = await db
      .insert(schema.comments)
      .values({
        manuscriptId: manuscript.id,
        selectionId: comment.selectionId,
        authorId: people.moderator.user.id,
        parentId: comment.id,
        body: 'A reply',
      })
      .returning();
    const lastEventOf = async (name: string) =>
      (
        await db
          .select()
          .from(schema.events)
          .where(eq(schema.events.name, name))
          .orderBy(desc(schema.events.id))
          .limit(1)
      )[0];

    expect((await admin().delete(`/admin/api/comment/${reply!.id}`)).statusCode).toBe(200);
    // A reply's own event (the live room drops the reply), not a comment's.
    expect(await lastEventOf('reply.deleted')).toMatchObject({
      actorId: people.admin.user.id,
      payload: { manuscriptId: manuscript.id, replyId: reply!.id, commentId: comment.id },
    });

    expect((await admin().delete(`/admin/api/comment/${comment.id}`)).statusCode).toBe(200);
    // The writer's highlight, made for this comment and now without one, goes with it.
    expect(await lastEventOf('comment.deleted')).toMatchObject({
      payload: { commentId: comment.id, selectionId: comment.selectionId, highlightRemoved: true },
    });
    const [highlight] = await db
      .select()
      .from(schema.highlights)
      .where(eq(schema.highlights.id, comment.selectionId));
    expect(highlight?.deletedAt).toBeInstanceOf(Date);
  });

  it('suspends members only, ending their sessions', async () => {
    const { client, user } = await loggedInClient(test);
    expect((await client.get('/auth/me')).statusCode).not.toBe(401);
    const response = await people.moderator.client.post('/admin/api/user/bulk', {
      action: 'suspend',
      ids: [user.id, people.admin.user.id],
    });
    expect(response.json()).toEqual({ affected: 1 });
    const sessions = await test.ctx.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, user.id));
    expect(sessions).toEqual([]);
  });
});

describe('the audit log', () => {
  it('records create, update and delete with before and after, and nothing for a refused write', async () => {
    const created = (
      await admin().post('/admin/api/genre', { name: 'Audited', category_id: await categoryId() })
    ).json().item;
    await admin().put(`/admin/api/genre/${created.id}`, { name: 'Audited again' });
    await admin().delete(`/admin/api/genre/${created.id}`);
    const refused = await admin().put(`/admin/api/genre/${created.id}`, { name: '' });
    expect(refused.statusCode).toBe(400);
    const rows = (await auditRows()).filter((row) => row.section === 'genre');
    expect(rows.map((row) => row.action)).toEqual(['delete', 'update', 'create']);
    expect(rows[2]).toMatchObject({ before: null, after: { name: 'Audited' } });
    expect(rows[1]).toMatchObject({
      before: { name: 'Audited' },
      after: { name: 'Audited again' },
    });
    expect(rows[0]).toMatchObject({ before: { name: 'Audited again' }, after: null });
    const listed = (
      await admin().get(`/admin/api/audit-log?section=genre&entity_ids=${created.id}`)
    ).json();
    expect(listed.total).toBe(3);
    expect(listed.items[0]).toMatchObject({
      action: 'delete',
      actor_id: people.admin.user.id,
      actor_role: 'admin',
    });
    const csv = (await admin().get('/admin/api/audit-log/export/csv?section=genre')).body;
    expect(csv.trim().split('\r\n')).toHaveLength(4);
  });
});

describe('the dashboard', () => {
  it('counts per day over 30 days, oldest first, with totals', async () => {
    const response = (await admin().get('/admin/api/_dashboard')).json();
    expect(response.metrics.map((metric: { name: string }) => metric.name)).toEqual([
      'signups',
      'uploads',
      'conversions_failed',
      'open_reports',
      'subscriptions',
    ]);
    const users = await test.ctx.db.select().from(schema.users);
    const signups = response.metrics[0];
    expect(signups.total).toBe(users.length);
    expect(signups.series).toHaveLength(30);
    expect(signups.series.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      count: users.length,
    });
    // Uploads count manuscripts, whether or not a conversion job made them (the demo seed's).
    await buildManuscript(test.ctx.db, people.member.user);
    const manuscripts = await test.ctx.db
      .select({ id: schema.manuscripts.id })
      .from(schema.manuscripts);
    const uploads = (await admin().get('/admin/api/_dashboard')).json().metrics[1];
    expect(uploads.total).toBe(manuscripts.length);
    expect(uploads.total).toBeGreaterThan(0);
    const moderator = (await people.moderator.client.get('/admin/api/_dashboard')).json();
    expect(moderator.metrics.map((metric: { name: string }) => metric.name)).not.toContain(
      'subscriptions',
    );
  });
});

async function categoryId(): Promise<number> {
  const [row] = await test.ctx.db.select().from(schema.genreCategories).limit(1);
  if (row) return row.id;
  const [created] = await test.ctx.db
    .insert(schema.genreCategories)
    .values({ name: 'Fiction' })
    .returning();
  return created!.id;
}
