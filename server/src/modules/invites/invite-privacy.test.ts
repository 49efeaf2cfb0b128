// Issue 19.2 and 20.2: an invite's answer never turns an e-mail address into a handle, nor a
// handle into an e-mail address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invite } from '@margins/common';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { personFor, type Person } from './test-helpers.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});
afterAll(async () => {
  await test?.close();
});

const newManuscript = () => buildManuscript(test.ctx.db, author.user, { visibility: 'private' });

/** What differs between any two invites anyway (ids, codes, times) blanked out. */
function shape(invite: Invite) {
  return {
    ...invite,
    id: 0,
    created: '',
    link: invite.link ? 'link' : null,
    invite_code: invite.invite_code ? { ...invite.invite_code, code: '' } : null,
    email: invite.email?.replace(/^[^@]+/, 'someone') ?? null,
  };
}

async function authorsList(manuscriptId: number): Promise<Invite[]> {
  const response = await author.client.get(`/manuscript/${manuscriptId}/invites`);
  expect(response.statusCode).toBe(200);
  return (response.json() as { invites: Invite[] }).invites;
}

describe('invite by e-mail', () => {
  it('answers the same for an address with an account and one without', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const url = `/manuscript/${manuscript.id}/invite/user`;
    const known = await author.client.post(url, { email: reader.user.email });
    const unknown = await author.client.post(url, { email: `nobody-${Date.now()}@example.test` });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).not.toContain(reader.user.handle!);
    expect(known.body).not.toContain(`"id":${reader.user.id},`);
    expect(shape(known.json().invite)).toEqual(shape(unknown.json().invite));
    // The author's list of the manuscript's invites says no more.
    const listed = await authorsList(manuscript.id);
    expect(JSON.stringify(listed)).not.toContain(reader.user.handle!);
    expect(listed.every((invite) => invite.user === null)).toBe(true);
  });

  it('names the account to the author once the invitee accepts', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const sent = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      username: reader.user.email,
    });
    const { invite } = sent.json() as { invite: Invite };
    // The invitee sees it among their invites, and accepts.
    const mine = (await reader.client.get('/user/current/invites')).json() as { invites: Invite[] };
    expect(mine.invites.map((item) => item.id)).toContain(invite.id);
    expect((await reader.client.post(`/invite/${invite.id}/accept`)).statusCode).toBe(200);

    const [listed] = (await authorsList(manuscript.id)).filter((item) => item.id === invite.id);
    expect(listed).toMatchObject({
      status: 'accepted',
      email: reader.user.email,
      user: { id: reader.user.id, handle: reader.user.handle, email: null },
    });
  });

  it('a declined invite still does not name the account', async () => {
    const manuscript = await newManuscript();
    const reader = await personFor(test);
    const sent = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
      email: reader.user.email,
    });
    const { invite } = sent.json() as { invite: Invite };
    expect((await reader.client.delete(`/invite/${invite.id}`)).statusCode).toBe(200);
    const listed = await authorsList(manuscript.id);
    expect(JSON.stringify(listed)).not.toContain(reader.user.handle!);
  });
});

describe('invite by handle', () => {
  it("never shows the invitee's e-mail, in the answer or any list the author sees", async () => {
    const manuscript = await newManuscript();
    const readers = await Promise.all([personFor(test), personFor(test), personFor(test)]);
    for (const reader of readers) {
      const response = await author.client.post(`/manuscript/${manuscript.id}/invite/user`, {
        username: reader.user.handle,
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(reader.user.email);
      expect(response.json().invite).toMatchObject({
        email: null,
        user: { handle: reader.user.handle, display_name: reader.user.displayName, email: null },
      });
    }
    const everything = [
      JSON.stringify(await authorsList(manuscript.id)),
      (await author.client.get(`/manuscript/document/reader/${manuscript.id}`)).body,
      (await author.client.get('/dashboard', { headers: { accept: 'text/html' } })).body,
    ].join('\n');
    for (const reader of readers) expect(everything).not.toContain(reader.user.email);
  });
});
