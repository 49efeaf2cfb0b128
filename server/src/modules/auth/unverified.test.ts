// Issue 20.8: an unconfirmed e-mail may log in, but not upload or invite until it is confirmed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript, postFile } from '../manuscripts/test-helpers.ts';

let test: TestApp;
let ip = 10;
const nextIp = () => `10.8.0.${ip++}`;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const text = 'Chapter One\n\nThe lamp was lit at dusk, as it always was.\n';

async function unverifiedAuthor() {
  const user = await buildUser(test.ctx.db, { emailVerifiedAt: null });
  const { client } = await loggedInClient(test, user, nextIp());
  const manuscript = await buildManuscript(test.ctx.db, user, { visibility: 'private' });
  return { user, client, manuscript };
}

describe('an unconfirmed e-mail address', () => {
  it('may log in and read its dashboard', async () => {
    const { client } = await unverifiedAuthor();
    expect((await client.get('/user/current/manuscripts')).statusCode).toBe(200);
  });

  it('may not upload a manuscript or a new draft (403, saying what to do)', async () => {
    const { client, manuscript } = await unverifiedAuthor();
    const upload = await postFile(client, '/manuscript/document', 'lamp.txt', text, {
      title: 'The Lamp',
    });
    expect(upload.statusCode).toBe(403);
    expect(upload.json()).toEqual({ error: MESSAGES.emailUnverified });
    const draft = await postFile(client, `/manuscript/${manuscript.id}/document`, 'lamp.txt', text);
    expect(draft.statusCode).toBe(403);
    expect(draft.json().error).toBe(MESSAGES.emailUnverified);
    const rows = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.title, 'The Lamp'));
    expect(rows).toEqual([]);
  });

  it('may not invite anyone, by handle, e-mail or link (403)', async () => {
    const { client, manuscript } = await unverifiedAuthor();
    const reader = await buildUser(test.ctx.db);
    for (const body of [{ username: reader.handle }, { email: 'someone@example.test' }]) {
      const response = await client.post(`/manuscript/${manuscript.id}/invite/user`, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe(MESSAGES.emailUnverified);
    }
    const link = await client.post(`/manuscript/${manuscript.id}/invite/link`, {
      access: 'private',
    });
    expect(link.statusCode).toBe(403);
    const invites = await test.ctx.db
      .select()
      .from(schema.invites)
      .where(eq(schema.invites.manuscriptId, manuscript.id));
    expect(invites).toEqual([]);
  });

  it('can have the link sent again, a few times an hour', async () => {
    const { user, client } = await unverifiedAuthor();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await client.post('/auth/verify/resend')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const mails = (await test.ctx.mailer.list(1000)).filter((mail) => mail.to === user.email);
    expect(mails).toHaveLength(5);
    expect(mails[0]!.text).toMatch(/\/auth\/verify\?token=/);
  });

  it('uploads once confirmed', async () => {
    const { user, client } = await unverifiedAuthor();
    await test.ctx.db
      .update(schema.users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(schema.users.id, user.id));
    const upload = await postFile(client, '/manuscript/document', 'lamp.txt', text, {
      title: 'The Lamp, confirmed',
    });
    expect(upload.statusCode, upload.body).toBe(200);
  });
});
