import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { INVITE_CODE_LENGTH, randomInviteCode } from './invite-codes.ts';
import { clientFor } from './testing.ts';

const LIMIT = 3;
let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ platformInviteLimit: LIMIT });
});
afterAll(async () => test?.close());

const codesOf = (userId: number) =>
  test.ctx.db
    .select()
    .from(schema.platformInviteCodes)
    .where(eq(schema.platformInviteCodes.createdById, userId));

describe('randomInviteCode', () => {
  it('is 10 symbols of an unambiguous base-32 alphabet, different every time', () => {
    const codes = new Set(Array.from({ length: 500 }, randomInviteCode));
    expect(codes.size).toBe(500);
    for (const code of codes) {
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
      expect(code).toHaveLength(INVITE_CODE_LENGTH);
    }
  });
});

describe('GET /profile/generate/invite', () => {
  it('creates codes up to the limit, then answers 400 "No more invites available"', async () => {
    const { client, user } = await clientFor(test);
    const seen: string[] = [];
    for (let i = 1; i <= LIMIT; i++) {
      const response = await client.get('/profile/generate/invite');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.invites_remaining).toBe(LIMIT - i);
      expect(body.invite_code).toEqual({
        code: expect.stringMatching(/^[2-9A-HJ-NP-Z]{10}$/),
        redeemed: false,
        created: expect.any(String),
      });
      expect(new Date(body.invite_code.created).toISOString()).toBe(body.invite_code.created);
      seen.push(body.invite_code.code);
    }
    const refused = await client.get('/profile/generate/invite');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: MESSAGES.noMoreInvites });
    expect((await codesOf(user.id)).map((row) => row.code).sort()).toEqual(seen.sort());

    const bundle = (await client.get('/profile/')).json();
    expect(bundle.invites_remaining).toBe(0);
    expect(bundle.invite_codes.map((code: { code: string }) => code.code).sort()).toEqual(
      seen.sort(),
    );
  });

  it('cannot pass the limit with parallel calls', async () => {
    const { client, user } = await clientFor(test);
    const responses = await Promise.all(
      Array.from({ length: LIMIT + 4 }, () => client.get('/profile/generate/invite')),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(4).fill(400)]);
    expect(await codesOf(user.id)).toHaveLength(LIMIT);
  });

  it('counts per user: one user at the limit does not stop another', async () => {
    const first = await clientFor(test);
    for (let i = 0; i < LIMIT; i++) await first.client.get('/profile/generate/invite');
    const second = await clientFor(test);
    const response = await second.client.get('/profile/generate/invite');
    expect(response.statusCode).toBe(200);
    expect(response.json().invites_remaining).toBe(LIMIT - 1);
  });

  it('shows a redeemed code as redeemed', async () => {
    const { client, user } = await clientFor(test);
    const { code } = (await client.get('/profile/generate/invite')).json().invite_code;
    const invitee = await buildUser(test.ctx.db);
    await test.ctx.db
      .update(schema.platformInviteCodes)
      .set({ redeemedById: invitee.id, redeemedAt: new Date() })
      .where(eq(schema.platformInviteCodes.code, code));
    const bundle = (await client.get('/profile/')).json();
    expect(bundle.invite_codes).toEqual([{ code, redeemed: true, created: expect.any(String) }]);
    expect(await codesOf(user.id)).toHaveLength(1);
  });

  it('needs the CSRF header even though it is a GET', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get('/profile/generate/invite', { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect(await codesOf(user.id)).toHaveLength(0);
  });

  it('needs a login', async () => {
    const response = await new TestClient(test.app).get('/profile/generate/invite');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: MESSAGES.notLoggedIn });
  });

  it('refuses an account that has not finished sign-up (it could invite itself)', async () => {
    const unfinished = await buildUser(test.ctx.db, { signupCompletedAt: null, handle: null });
    const { client } = await clientFor(test, unfinished);
    const response = await client.get('/profile/generate/invite');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.forbidden });
    expect(await codesOf(unfinished.id)).toHaveLength(0);
  });
});
