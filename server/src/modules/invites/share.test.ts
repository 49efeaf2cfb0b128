import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_TYPES, type Invite, type SharePageData } from '@margins/common';
import { schema } from '../../db/index.ts';
import { TEST_PASSWORD } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { buildReport } from '../moderation/test-helpers.ts';
import { SHARE_MESSAGES } from './share.ts';
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

async function makeLink(manuscriptId: number, access: string, useInvite = false): Promise<Invite> {
  const response = await author.client.post(`/manuscript/${manuscriptId}/invite/link`, {
    access,
    useInvite,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().invite as Invite;
}

const sharePath = (invite: Invite) => `/share/${invite.invite_code!.code}`;
const readerPath = (id: number) => `/manuscript/document/reader/${id}`;

/** The landing's Accept button: POST /share/{code}/accept (with the CSRF header). */
const accept = (client: TestClient, path: string) => client.post(`${path}/accept`);

/** Opens the landing (it must offer Accept) and presses Accept; answers the redirect target. */
async function openAndAccept(client: TestClient, path: string): Promise<string> {
  const landing = await getPage(client, path);
  expect(landing.statusCode, landing.body).toBe(200);
  expect(pageConfigOf(landing).data).toMatchObject({ state: 'accept' });
  const accepted = await accept(client, path);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return (accepted.json() as { redirect: string }).redirect;
}

describe('GET /share/:code', () => {
  it('sends a logged-out visitor to log in and back; public manuscripts straight to the reader', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private');
    const anonymous = new TestClient(test.app);
    const page = await getPage(anonymous, sharePath(link));
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`/auth/login?next=${encodeURIComponent(sharePath(link))}`);
    expect((await anonymous.get(sharePath(link))).statusCode).toBe(401);

    const open = await newManuscript();
    const publicLink = await makeLink(open.id, 'public');
    const straight = await getPage(anonymous, sharePath(publicLink));
    expect(straight.headers.location).toBe(readerPath(open.id));
  });

  it('redeems a one-time link once: the second user is refused with a clear page', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private', true);
    const first = await personFor(test);
    const second = await personFor(test);

    expect(await openAndAccept(first.client, sharePath(link))).toBe(readerPath(manuscript.id));
    expect((await first.client.get(readerPath(manuscript.id))).statusCode).toBe(200);
    // The reader keeps coming back through it.
    expect((await getPage(first.client, sharePath(link))).headers.location).toBe(
      readerPath(manuscript.id),
    );

    const refused = await getPage(second.client, sharePath(link));
    expect(refused.statusCode).toBe(403);
    const config = pageConfigOf(refused);
    expect(config.page).toBe('share');
    expect(config.data).toMatchObject({ state: 'used', message: SHARE_MESSAGES.used });
    expect((await second.client.get(readerPath(manuscript.id))).statusCode).toBe(404);
    expect((await second.client.get(sharePath(link))).json()).toMatchObject({ state: 'used' });
    expect((await accept(second.client, sharePath(link))).statusCode).toBe(403);

    // The author sees who used it; removing that reader closes the link for them too.
    const { invites } = (await author.client.get(`/manuscript/${manuscript.id}/invites`)).json();
    const used = (invites as Invite[]).find((invite) => invite.id === link.id)!;
    expect(used.invite_code!.redeemed).toBe(true);
    const redemption = (invites as Invite[]).find((invite) => invite.kind === 'redemption')!;
    expect(redemption.user!.id).toBe(first.user.id);
    expect(redemption.user!.email).toBeNull();
    await author.client.delete(`/manuscript/invite/${redemption.id}`);
    expect((await getPage(first.client, sharePath(link))).statusCode).toBe(403);
  });

  it('lets everyone who has a reusable private link in, and adds it to their reads', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private');
    for (const reader of [await personFor(test), await personFor(test)]) {
      expect(await openAndAccept(reader.client, sharePath(link))).toBe(readerPath(manuscript.id));
      const reads = (await reader.client.get('/user/current/bookmarks')).json().bookmarks;
      expect(reads.map((read: { manuscript_id: number }) => read.manuscript_id)).toEqual([
        manuscript.id,
      ]);
    }
  });

  it('stops a private link once the author makes a link of another type', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'logged_in');
    await author.client.post(`/manuscript/${manuscript.id}/edit`, { visibility: 'private' });
    const reader = await personFor(test);
    const page = await getPage(reader.client, sharePath(link));
    expect(page.statusCode).toBe(404);
    expect(pageConfigOf(page).data).toMatchObject({ state: 'unavailable' });
  });

  it('accepts an invite for its invitee only; others get a clear page', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
      status: 'pending',
    });
    const other = await personFor(test);
    const refused = await getPage(other.client, `/share/${invite.code}`);
    expect(refused.statusCode).toBe(403);
    expect(pageConfigOf(refused).data).toMatchObject({ state: 'not_yours' });
    expect((await accept(other.client, `/share/${invite.code}`)).statusCode).toBe(403);
    expect(await openAndAccept(reader.client, `/share/${invite.code}`)).toBe(
      readerPath(manuscript.id),
    );
    const [row] = await test.ctx.db
      .select()
      .from(schema.invites)
      .where(eq(schema.invites.id, invite.id));
    expect(row!.status).toBe('accepted');
  });

  it('changes nothing on GET: a link from another site neither accepts nor adds a read', async () => {
    const manuscript = await newManuscript({ summary: 'A quiet summary.' });
    const reader = await personFor(test);
    const invite = await buildInvite(test.ctx.db, {
      manuscriptId: manuscript.id,
      invitedUserId: reader.user.id,
      createdById: author.user.id,
      status: 'pending',
    });
    const link = await makeLink(manuscript.id, 'private', true);
    for (const path of [`/share/${invite.code}`, sharePath(link)]) {
      const landing = await getPage(reader.client, path);
      expect(landing.statusCode).toBe(200);
      expect(pageConfigOf(landing).data).toMatchObject({
        state: 'accept',
        manuscript: {
          id: manuscript.id,
          title: manuscript.title,
          summary: 'A quiet summary.',
          author: { display_name: author.user.displayName },
        },
      });
      // A form posted from another site has no CSRF header.
      expect(
        (await reader.client.post(`${path}/accept`, undefined, { csrf: false })).statusCode,
      ).toBe(403);
    }
    const reads = (await reader.client.get('/user/current/bookmarks')).json().bookmarks;
    expect(reads).toEqual([]);
    const [row] = await test.ctx.db
      .select()
      .from(schema.invites)
      .where(eq(schema.invites.id, invite.id));
    expect(row!.status).toBe('pending');
    const [linkRow] = await test.ctx.db
      .select()
      .from(schema.invites)
      .where(eq(schema.invites.id, link.id));
    expect(linkRow!.redeemedAt).toBeNull();
    expect((await reader.client.get(readerPath(manuscript.id))).statusCode).toBe(404);
  });

  it('shows an invalid link as such (404), archived manuscripts too', async () => {
    const reader = await personFor(test);
    const page = await getPage(reader.client, '/share/no-such-code');
    expect(page.statusCode).toBe(404);
    expect(pageConfigOf(page).data).toMatchObject({ state: 'invalid', manuscript: null });
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private');
    await author.client.delete(`/manuscript/${manuscript.id}`);
    expect((await getPage(reader.client, sharePath(link))).statusCode).toBe(404);
  });

  it('lands manuscript invite codes given to /auth/invite/landing on their share link', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private');
    const landing = await getPage(
      new TestClient(test.app),
      `/auth/invite/landing/${link.invite_code!.code}`,
    );
    expect(landing.statusCode).toBe(302);
    expect(landing.headers.location).toBe(sharePath(link));
    const platform = await getPage(new TestClient(test.app), '/auth/invite/landing/ABCDEFGHJK');
    expect(pageConfigOf(platform).page).toBe('invite-landing');
  });
});

describe('restricted manuscripts: requesting access', () => {
  it('offers a request, the author approves or refuses, and the reader gets in only when approved', async () => {
    const manuscript = await newManuscript({ visibility: 'restricted', approvalsRequired: true });
    const link = await makeLink(manuscript.id, 'restricted');
    const reader = await personFor(test);
    const landing = await getPage(reader.client, sharePath(link));
    expect(landing.statusCode).toBe(200);
    const data = pageConfigOf(landing).data as SharePageData;
    expect(data).toMatchObject({ state: 'request_access', manuscript: { id: manuscript.id } });
    expect((await reader.client.get(readerPath(manuscript.id))).statusCode).toBe(404);

    const requested = await reader.client.post(`${sharePath(link)}/request`);
    expect(requested.statusCode, requested.body).toBe(200);
    const request = requested.json().invite as Invite;
    expect(request).toMatchObject({ kind: 'request', status: 'requested' });
    expect(pageConfigOf(await getPage(reader.client, sharePath(link))).data).toMatchObject({
      state: 'request_pending',
    });

    const decide = (decision: string, client = author.client) =>
      client.post(`/manuscript/${manuscript.id}/access/${request.id}/${decision}`);
    expect((await decide('approve', reader.client)).statusCode).toBe(404);
    expect((await decide('approve', new TestClient(test.app))).statusCode).toBe(401);
    expect((await decide('maybe')).statusCode).toBe(400);
    expect(
      (await author.client.post(`/manuscript/${manuscript.id}/access/99999999/approve`)).statusCode,
    ).toBe(404);
    const approved = await decide('approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().invite.status).toBe('approved');
    // The requester's e-mail is not the author's to see (they did not send this).
    expect(approved.json().invite.user.email).toBeNull();
    expect((await reader.client.get(readerPath(manuscript.id))).statusCode).toBe(200);
    expect((await getPage(reader.client, sharePath(link))).headers.location).toBe(
      readerPath(manuscript.id),
    );

    expect((await decide('refuse')).json().invite.status).toBe('refused');
    expect((await reader.client.get(readerPath(manuscript.id))).statusCode).toBe(404);
    expect(pageConfigOf(await getPage(reader.client, sharePath(link))).data).toMatchObject({
      state: 'request_refused',
    });
    expect((await reader.client.post(`${sharePath(link)}/request`)).statusCode).toBe(403);
  });

  it('refuses requests where they make no sense', async () => {
    const manuscript = await newManuscript({ visibility: 'restricted' });
    const link = await makeLink(manuscript.id, 'restricted');
    expect((await new TestClient(test.app).post(`${sharePath(link)}/request`)).statusCode).toBe(
      401,
    );
    expect((await author.client.post(`${sharePath(link)}/request`)).statusCode).toBe(400);
    const reader = await personFor(test);
    expect((await reader.client.post('/share/nope/request')).statusCode).toBe(404);
    const again = await reader.client.post(`${sharePath(link)}/request`);
    const twice = await reader.client.post(`${sharePath(link)}/request`);
    expect(twice.json().invite.id).toBe(again.json().invite.id);
    const other = await newManuscript();
    const otherLink = await makeLink(other.id, 'private');
    expect((await reader.client.post(`${sharePath(otherLink)}/request`)).statusCode).toBe(404);
  });
});

describe('staff and share links', () => {
  // The access matrix covers staff without a report; here every link type with one open.
  for (const role of ['moderator', 'admin'] as const) {
    for (const access of INVITE_TYPES) {
      it(`a ${role} through a ${access} link: the reader only while a report is open`, async () => {
        const manuscript = await newManuscript({ visibility: access });
        const link = await makeLink(manuscript.id, access);
        const staff = await personFor(test, { role });
        const { report } = await buildReport(test.ctx.db, {
          model: 'manuscript',
          elementId: manuscript.id,
        });
        const accepted = await accept(staff.client, sharePath(link));
        expect(accepted.statusCode, accepted.body).toBe(200);
        expect(accepted.json()).toEqual({ redirect: readerPath(manuscript.id) });
        expect((await staff.client.get(readerPath(manuscript.id))).statusCode).toBe(200);

        // Report closed: a member like any other (restricted: ask; private: redeem the link).
        await test.ctx.db
          .update(schema.reports)
          .set({ status: 'dismissed' })
          .where(eq(schema.reports.id, report.id));
        const other = await personFor(test, { role });
        const again = await accept(other.client, sharePath(link));
        if (access === 'restricted') {
          expect(again.statusCode).toBe(409);
          expect(again.json().error).toBe(SHARE_MESSAGES.request_access);
          expect((await other.client.get(readerPath(manuscript.id))).statusCode).toBe(404);
        } else {
          expect(again.statusCode, again.body).toBe(200);
          expect((await other.client.get(readerPath(manuscript.id))).statusCode).toBe(200);
        }
      });
    }
  }
});

describe('signing up through an invite', () => {
  let ip = 40;
  const nextIp = () => `10.9.0.${ip++}`;

  async function verificationPath(email: string): Promise<string> {
    const mails = await test.ctx.mailer.list();
    const mail = mails.find((row) => row.to === email && row.subject.startsWith('Verify'));
    const link = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail!.text)![0];
    const url = new URL(link);
    return url.pathname + url.search;
  }

  async function signUpFrom(next: string, email: string): Promise<TestClient> {
    const client = new TestClient(test.app, nextIp());
    const signup = await client.post('/auth/signup', {
      email,
      password: TEST_PASSWORD,
      display_name: 'New Reader',
      next,
    });
    expect(signup.statusCode, signup.body).toBe(200);
    const verified = await getPage(client, await verificationPath(email));
    expect(verified.headers.location).toBe('/auth/complete/signup');
    const completed = await client.post('/auth/complete/signup', {
      handle: `reader_${Date.now().toString(36)}_${ip}`,
      display_name: 'New Reader',
    });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().next).toBe(next);
    return client;
  }

  it('comes back to the share link after sign-up and lands in the text', async () => {
    const manuscript = await newManuscript();
    const link = await makeLink(manuscript.id, 'private', true);
    const client = await signUpFrom(sharePath(link), `share-${Date.now()}@example.test`);
    // Back on the landing: one click to accept.
    expect(await openAndAccept(client, sharePath(link))).toBe(readerPath(manuscript.id));
    const reader = await client.get(readerPath(manuscript.id));
    expect(reader.json().html).toContain('Once upon a time');
  });

  it('finds an e-mail invite waiting once the address is verified', async () => {
    const manuscript = await newManuscript();
    const email = `invited-${Date.now()}@example.test`;
    const invited = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      email,
    });
    const { invite } = invited.json() as { invite: Invite };
    const client = await signUpFrom('/dashboard', email);
    const { invites } = (await client.get('/user/current/invites')).json() as { invites: Invite[] };
    expect(invites.map((row) => row.id)).toEqual([invite.id]);
    expect((await client.post(`/invite/${invite.id}/accept`)).statusCode).toBe(200);
    expect((await client.get(readerPath(manuscript.id))).statusCode).toBe(200);
    const [row] = await test.ctx.db
      .select()
      .from(schema.invites)
      .where(and(eq(schema.invites.id, invite.id), eq(schema.invites.status, 'accepted')));
    expect(row!.invitedUserId).not.toBeNull();
  });
});
