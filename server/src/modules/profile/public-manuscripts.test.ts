import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { grantReader, sessionClient } from '../comments/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

describe('a public profile and its manuscripts', () => {
  it('lists only what the visitor may open, and gives the page its own title and description', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db, {
      displayName: 'Ada "Quill" <b>&',
      about: 'Maps, tides & the hours nobody charts.',
    });
    const make = async (title: string, values: Partial<typeof schema.manuscripts.$inferInsert>) =>
      (await buildManuscript(db, author, { title, ...values })).id;
    const ids = {
      public: await make('Open Book', { visibility: 'public' }),
      members: await make('Members Book', { visibility: 'logged_in' }),
      private: await make('Private Book', { visibility: 'private' }),
      restricted: await make('Restricted Book', { visibility: 'restricted' }),
      archived: await make('Archived Book', { visibility: 'public', archivedAt: new Date() }),
      inking: await make('Inking Book', { visibility: 'public' }),
    };
    await db
      .update(schema.manuscripts)
      .set({ inking: true })
      .where(eq(schema.manuscripts.id, ids.inking));
    const url = `/profile/get/${author.id}/manuscripts`;
    const titles = async (client: TestClient) => {
      const response = await client.get(url);
      expect(response.statusCode).toBe(200);
      return (response.json() as { manuscripts: Array<{ title: string }> }).manuscripts
        .map((manuscript) => manuscript.title)
        .sort();
    };

    expect(await titles(new TestClient(test.app))).toEqual(['Open Book']);
    const member = await sessionClient(test);
    expect(await titles(member.client)).toEqual(['Members Book', 'Open Book']);
    const invited = await sessionClient(test);
    await grantReader(db, ids.private, invited.user.id);
    expect(await titles(invited.client)).toEqual(['Members Book', 'Open Book', 'Private Book']);
    const owner = await sessionClient(test, author);
    expect(await titles(owner.client)).toEqual([
      'Members Book',
      'Open Book',
      'Private Book',
      'Restricted Book',
    ]);

    const page = await new TestClient(test.app).get(url, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"page":"public-profile"');
    expect(page.body).toContain('Open Book');
    expect(page.body).not.toContain('Members Book');
    const profilePage = await new TestClient(test.app).get(`/profile/get/${author.id}`, {
      headers: { accept: 'text/html' },
    });
    expect(profilePage.body).toContain('Open Book');
    expect(profilePage.body).toContain(
      '<title>Ada &#34;Quill&#34; &#60;b&#62;&#38; · Margins</title>',
    );
    expect(profilePage.body).toContain(
      '<meta property="og:description" content="Maps, tides &#38; the hours nobody charts.">',
    );
    expect((await new TestClient(test.app).get('/profile/get/999999/manuscripts')).statusCode).toBe(
      404,
    );
  });
});
