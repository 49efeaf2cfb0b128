import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Invite } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { ONE_TIME_PRIVATE_ONLY } from './service.ts';
import { buildInvite, getPage, pageConfigOf, personFor, type Person } from './test-helpers.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});
afterAll(async () => {
  await test?.close();
});

const newManuscript = (overrides: Parameters<typeof buildManuscript>[2] = {}) =>
  buildManuscript(test.ctx.db, author.user, { visibility: 'private', ...overrides });

const inviteRows = (manuscriptId: number) =>
  test.ctx.db.select().from(schema.invites).where(eq(schema.invites.manuscriptId, manuscriptId));

describe('POST /manuscript/:id/invite/user', () => {
  it('invites an account by handle; nobody sees its e-mail', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: `@${reader.user.handle!.toUpperCase()}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { invite } = response.json() as { invite: Invite };
    expect(invite).toMatchObject({
      kind: 'user',
      status: 'pending',
      invite_type: 'private',
      user: { id: reader.user.id, handle: reader.user.handle, email: null },
      email: null,
      manuscript: { id: manuscript.id, title: manuscript.title },
    });
    expect(response.body).not.toContain(reader.user.email);
    // On the host the request came to (PUBLIC_URL is unset here; plugins/link-base.test.ts).
    expect(new URL(invite.link!).pathname).toBe(`/share/${invite.invite_code!.code}`);

    // The invitee sees it among their invites, without any e-mail address or code.
    const mine = await reader.client.get('/user/current/invites');
    expect(mine.statusCode).toBe(200);
    const [seen] = (mine.json() as { invites: Invite[] }).invites;
    expect(seen).toMatchObject({ id: invite.id, link: null, invite_code: null, email: null });
    expect(seen!.user!.email).toBeNull();
    expect(JSON.stringify(mine.json())).not.toContain(reader.user.email);
  });

  it('invites an account by its verified e-mail, typed in either box', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.email.toUpperCase(),
    });
    expect(response.statusCode, response.body).toBe(200);
    // Addressed to the address as typed: the answer does not name the account behind it.
    expect(response.json().invite).toMatchObject({
      kind: 'email',
      email: reader.user.email,
      user: null,
    });
    const mine = (await reader.client.get('/user/current/invites')).json() as { invites: Invite[] };
    expect(mine.invites.map((invite) => invite.id)).toEqual([response.json().invite.id]);
  });

  it('answers every SPEC case: empty 400, unknown handle 404, already invited 400, self 400', async () => {
    const manuscript = await newManuscript();
    const url = `/manuscript/${manuscript.id}/invite/user`;
    const empty = await author.client.post(url, { username: '  ', email: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.username).toEqual([MESSAGES.enterUserOrEmail]);

    const unknown = await author.client.post(url, { username: 'nobody_by_this_name' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(MESSAGES.inviteNoAccount);

    const badEmail = await author.client.post(url, { email: 'not@an' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().errors.email).toBeDefined();

    const reader = await personFor(test);
    expect((await author.client.post(url, { username: reader.user.handle })).statusCode).toBe(200);
    const twice = await author.client.post(url, { username: reader.user.handle });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe(MESSAGES.inviteUnable);

    const self = await author.client.post(url, { username: author.user.handle });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toBe(MESSAGES.inviteUnable);
  });

  it('refuses logged-out callers (401), strangers (404) and readers who are not the author (403)', async () => {
    const manuscript = await newManuscript();
    const url = `/manuscript/${manuscript.id}/invite/user`;
    const target = await personFor(test);
    expect((await new TestClient(test.app).post(url, { username: 'x_y_z' })).statusCode).toBe(401);
    const stranger = await personFor(test);
    expect((await stranger.client.post(url, { username: target.user.handle })).statusCode).toBe(
      404,
    );
    const publicOne = await newManuscript({ visibility: 'public' });
    const reader = await personFor(test);
    const refused = await reader.client.post(`/manuscript/${publicOne.id}/invite/user`, {
      username: target.user.handle,
    });
    expect(refused.statusCode).toBe(403);
    const archived = await newManuscript({ archivedAt: new Date() });
    const gone = await author.client.post(`/manuscript/${archived.id}/invite/user`, {
      username: target.user.handle,
    });
    expect(gone.statusCode).toBe(404);
    expect(await inviteRows(manuscript.id)).toHaveLength(0);
  });

  it('invites an address without an account: the invite waits for whoever verifies it', async () => {
    const manuscript = await newManuscript();
    const email = `new-reader-${Date.now()}@example.test`;
    const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      email,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().invite).toMatchObject({ kind: 'email', email, user: null });
    const again = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, { email });
    expect(again.statusCode).toBe(400);

    // An unverified account with that address does not get it (it has not proven the inbox).
    const squatter = await personFor(test, { email, emailVerifiedAt: null });
    expect((await squatter.client.get('/user/current/invites')).json().invites).toEqual([]);
  });

  it('approves a waiting access request instead of inviting twice', async () => {
    const manuscript = await newManuscript({ visibility: 'restricted' });
    const reader = await personFor(test);
    await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      kind: 'request',
      invitedUserId: reader.user.id,
      createdById: reader.user.id,
      status: 'requested',
    });
    const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.handle,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().invite).toMatchObject({ kind: 'request', status: 'approved' });
    expect(
      (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).statusCode,
    ).toBe(200);
  });
});

describe('POST /manuscript/:id/invite/link', () => {
  it("sets the manuscript's invite type and reuses its standing link", async () => {
    const manuscript = await newManuscript();
    const url = `/manuscript/${manuscript.id}/invite/link`;
    const first = await author.client.post(url, { access: 'logged_in', useInvite: false });
    expect(first.statusCode, first.body).toBe(200);
    const link = first.json().invite as Invite;
    expect(link).toMatchObject({ kind: 'link', invite_type: 'logged_in', one_time: false });
    const [row] = await test.ctx.db
      .select({ visibility: schema.manuscripts.visibility })
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, manuscript.id));
    expect(row!.visibility).toBe('logged_in');

    const second = await author.client.post(url, {
      access: 'public',
      code: link.invite_code!.code,
    });
    expect(second.json().invite).toMatchObject({ id: link.id, invite_type: 'public' });
  });

  it('makes a new one-time link each time, for private manuscripts only', async () => {
    const manuscript = await newManuscript();
    const url = `/manuscript/${manuscript.id}/invite/link`;
    const one = await author.client.post(url, { access: 'private', useInvite: true });
    const two = await author.client.post(url, { access: 'private', useInvite: 'on' });
    expect(one.json().invite.one_time).toBe(true);
    expect(two.json().invite.id).not.toBe(one.json().invite.id);
    const refused = await author.client.post(url, { access: 'public', useInvite: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.useInvite).toEqual([ONE_TIME_PRIVATE_ONLY]);
  });

  it('answers 404 for an archived or unknown manuscript, 401 logged out, 400 a bad type', async () => {
    const archived = await newManuscript({ archivedAt: new Date() });
    const gone = await author.client.post(`/manuscript/${archived.id}/invite/link`, {
      access: 'private',
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe(MESSAGES.linkDocumentMissing);
    expect(
      (await author.client.post('/manuscript/99999999/invite/link', { access: 'private' }))
        .statusCode,
    ).toBe(404);
    const manuscript = await newManuscript();
    expect(
      (
        await new TestClient(test.app).post(`/manuscript/${manuscript.id}/invite/link`, {
          access: 'private',
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await author.client.post(`/manuscript/${manuscript.id}/invite/link`, { access: 'secret' }))
        .statusCode,
    ).toBe(400);
  });
});

describe('accept, reject and delete', () => {
  it('lets the invitee accept (a read, "Added to reads!") and no one else (403), 404 once gone', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const other = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
      status: 'pending',
    });
    expect(
      (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).statusCode,
    ).toBe(404);
    const refused = await other.client.post(`/invite/${invite.id}/accept`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(MESSAGES.acceptForbidden);
    expect((await author.client.post(`/invite/${invite.id}/accept`)).statusCode).toBe(403);
    expect((await new TestClient(test.app).post(`/invite/${invite.id}/accept`)).statusCode).toBe(
      401,
    );

    const accepted = await reader.client.post(`/invite/${invite.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().bookmark).toMatchObject({
      manuscript_id: manuscript.id,
      manuscript: { id: manuscript.id },
    });
    expect(
      (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).statusCode,
    ).toBe(200);
    expect((await reader.client.get('/user/current/invites')).json().invites).toEqual([]);

    const missing = await reader.client.post('/invite/99999999/accept');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(MESSAGES.inviteMoved);
  });

  it('lets the invitee decline: marked rejected, no access, not in reads', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
      status: 'accepted',
    });
    expect((await author.client.delete(`/invite/${invite.id}`)).statusCode).toBe(403);
    const declined = await reader.client.delete(`/invite/${invite.id}`);
    expect(declined.statusCode).toBe(200);
    const [row] = await inviteRows(manuscript.id);
    expect(row!.status).toBe('rejected');
    expect(
      (await reader.client.get(`/manuscript/document/reader/${manuscript.id}`)).statusCode,
    ).toBe(404);
    expect((await reader.client.get('/user/current/bookmarks')).json().bookmarks).toEqual([]);
  });

  it('lets the author remove access ("Access removed"); a deleted link takes its redemptions along', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const viaLink = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
    });
    const link = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      kind: 'link',
      createdById: author.user.id,
      status: 'pending',
    });
    await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      kind: 'redemption',
      invitedUserId: viaLink.user.id,
      viaInviteId: link.id,
    });
    const readerPath = `/manuscript/document/reader/${manuscript.id}`;
    expect((await viaLink.client.get(readerPath)).statusCode).toBe(200);

    expect((await reader.client.delete(`/manuscript/invite/${invite.id}`)).statusCode).toBe(403);
    const stranger = await personFor(test);
    expect((await stranger.client.delete(`/manuscript/invite/${invite.id}`)).statusCode).toBe(404);
    expect(
      (await new TestClient(test.app).delete(`/manuscript/invite/${invite.id}`)).statusCode,
    ).toBe(401);

    expect((await author.client.delete(`/manuscript/invite/${invite.id}`)).statusCode).toBe(200);
    expect((await reader.client.get(readerPath)).statusCode).toBe(404);
    expect((await author.client.delete(`/manuscript/invite/${link.id}`)).statusCode).toBe(200);
    expect((await viaLink.client.get(readerPath)).statusCode).toBe(404);
    expect(await inviteRows(manuscript.id)).toEqual([]);
    expect((await author.client.delete(`/manuscript/invite/${link.id}`)).statusCode).toBe(404);
  });

  it("lists a manuscript's invites for its author only", async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
    });
    const list = await author.client.get(`/manuscript/${manuscript.id}/invites`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ visibility: 'private', invites: [{ kind: 'user' }] });
    expect((await reader.client.get(`/manuscript/${manuscript.id}/invites`)).statusCode).toBe(403);
    expect(
      (await new TestClient(test.app).get(`/manuscript/${manuscript.id}/invites`)).statusCode,
    ).toBe(401);
  });

  it('sends a browser from /user/current/invites to the dashboard (or to log in)', async () => {
    const page = await getPage(author.client, '/user/current/invites');
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/dashboard#invites');
    const anonymous = await getPage(new TestClient(test.app), '/user/current/invites');
    expect(anonymous.headers.location).toBe('/auth/login?next=%2Fuser%2Fcurrent%2Finvites');
    expect((await new TestClient(test.app).get('/user/current/invites')).statusCode).toBe(401);
  });

  it('puts pending invites and reads on the dashboard', async () => {
    const other = await personFor(test);
    const manuscript = await buildManuscript(test.ctx.db, other.user, { visibility: 'private' });
    const reader = await personFor(test);
    await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: other.user.id,
      status: 'pending',
    });
    const before = pageConfigOf(await getPage(reader.client, '/dashboard')).data as {
      invites: Invite[];
      bookmarks: unknown[];
    };
    expect(before.invites.map((invite) => invite.manuscript.id)).toEqual([manuscript.id]);
    expect(before.bookmarks).toEqual([]);
    await reader.client.post(`/invite/${before.invites[0]!.id}/accept`);
    const after = pageConfigOf(await getPage(reader.client, '/dashboard')).data as {
      invites: Invite[];
      bookmarks: Array<{ manuscript_id: number }>;
    };
    expect(after.invites).toEqual([]);
    expect(after.bookmarks.map((bookmark) => bookmark.manuscript_id)).toEqual([manuscript.id]);
  });
});

describe('the OpenAPI document', () => {
  it('describes the access routes from the same schemas', async () => {
    const response = await new TestClient(test.app).get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/manuscript/{manuscript_id}/invite/user',
      '/manuscript/{manuscript_id}/invite/link',
      '/manuscript/{manuscript_id}/invites',
      '/manuscript/invite/{invite_id}',
      '/manuscript/{manuscript_id}/access/{request_id}/{decision}',
      '/invite/{invite_id}/accept',
      '/invite/{invite_id}',
      '/user/current/invites',
      '/share/{code}',
      '/share/{code}/request',
      '/bookmark/{manuscript_id}',
      '/bookmark/{manuscript_id}/progress',
      '/user/current/bookmarks',
      '/manuscript/survey',
      '/manuscript/{manuscript_id}/survey/{survey_type}',
      '/manuscript/{manuscript_id}/survey/{survey_type}/responses',
      '/manuscript/survey/answer/{survey_answer_id}/approve',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
