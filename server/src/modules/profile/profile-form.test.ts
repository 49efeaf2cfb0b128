import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PICTURE_MAX_BYTES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { PICTURE_SIZE_MESSAGE, PICTURE_TYPE_MESSAGE } from '../media/service.ts';
import { clientFor, GIF_BYTES, multipartBody, PNG_BYTES } from './testing.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const userRow = async (id: number) => {
  const [row] = await test.ctx.db.select().from(schema.users).where(eq(schema.users.id, id));
  return row!;
};
const mediaRow = async (id: string) => {
  const [row] = await test.ctx.db.select().from(schema.media).where(eq(schema.media.id, id));
  return row ?? null;
};
const anonymous = () => new TestClient(test.app);

describe('POST /profile/', () => {
  const validForm = (handle: string) => ({
    handle,
    display_name: 'Ada Writer',
    about: 'I write.',
    pronouns: 'she/her',
    bluesky: 'ada.bsky.social',
    website: 'https://ada.example',
  });

  it('saves a JSON form and answers {form: {errors: {}}, user}', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.post('/profile/?format=json', validForm('ada_json'));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.form).toEqual({ errors: {} });
    expect(body.user).toMatchObject({
      id: user.id,
      handle: 'ada_json',
      display_name: 'Ada Writer',
      about: 'I write.',
      pronouns: 'she/her',
      bluesky: 'ada.bsky.social',
      website: 'https://ada.example',
      discord: null,
    });
    const saved = await userRow(user.id);
    expect(saved).toMatchObject({
      handle: 'ada_json',
      displayName: 'Ada Writer',
      about: 'I write.',
    });
  });

  it('saves a urlencoded form', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.request({
      method: 'POST',
      url: '/profile/',
      payload: 'handle=ada_urlenc&display_name=Ada+Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(200);
    expect((await userRow(user.id)).displayName).toBe('Ada Form');
  });

  it('clears empty fields and leaves absent ones as they were', async () => {
    const { client, user } = await clientFor(test);
    await client.post('/profile/', validForm('clear_me'));
    const response = await client.post('/profile/', {
      handle: 'clear_me',
      display_name: 'Still Ada',
      about: '',
      pronouns: '   ',
      website: '',
    });
    expect(response.statusCode).toBe(200);
    const saved = await userRow(user.id);
    expect(saved).toMatchObject({
      about: null,
      pronouns: null,
      website: null,
      bluesky: 'ada.bsky.social',
    });
  });

  it('answers 400 with field messages under errors and form.errors', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.post('/profile/', {
      handle: 'x',
      display_name: '',
      about: 'a'.repeat(2001),
      website: 'javascript:alert(1)',
      twitter: 'has space',
    });
    expect(response.statusCode).toBe(400);
    const errors = {
      handle: ['3 to 30 letters, digits or underscores.'],
      display_name: ['Enter a display name.'],
      about: ['Use at most 2000 characters.'],
      website: ['A link must start with https:// or http://.'],
      twitter: ['No spaces or angle brackets.'],
    };
    expect(response.json()).toEqual({ error: MESSAGES.checkFormFields, errors, form: { errors } });
    expect((await userRow(user.id)).handle).toBe(user.handle);
  });

  it('refuses a handle someone else has, in any letter case', async () => {
    await buildUser(test.ctx.db, { handle: 'Taken_Handle' });
    const { client, user } = await clientFor(test);
    const response = await client.post('/profile/', validForm('taken_HANDLE'));
    expect(response.statusCode).toBe(400);
    const errors = { handle: [MESSAGES.handleTaken] };
    expect(response.json()).toEqual({ error: MESSAGES.checkFormFields, errors, form: { errors } });
    expect((await userRow(user.id)).handle).toBe(user.handle);
  });

  it('lets users keep their own handle and change its case', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.post('/profile/', validForm(user.handle!.toUpperCase()));
    expect(response.statusCode).toBe(200);
    expect((await userRow(user.id)).handle).toBe(user.handle!.toUpperCase());
  });

  it('changes only the caller: e-mail and other accounts stay untouched', async () => {
    const victim = await buildUser(test.ctx.db);
    const { client, user } = await clientFor(test);
    const response = await client.post('/profile/', {
      ...validForm('not_victim'),
      id: victim.id,
      user_id: victim.id,
      email: 'stolen@example.test',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(user.id);
    expect((await userRow(user.id)).email).toBe(user.email);
    expect(await userRow(victim.id)).toMatchObject({
      handle: victim.handle,
      displayName: victim.displayName,
    });
  });

  it('answers 401 when logged out and 403 without the CSRF header', async () => {
    const loggedOut = await anonymous().post('/profile/', validForm('nobody'));
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ error: MESSAGES.notLoggedIn });

    const { client, user } = await clientFor(test);
    const noCsrf = await client.post('/profile/', validForm('no_csrf'), { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect((await userRow(user.id)).handle).toBe(user.handle);
  });

  describe('multipart with a picture', () => {
    const png = { name: 'picture', filename: 'me.png', contentType: 'image/png', data: PNG_BYTES };

    it('stores the picture (typed by its bytes) and replaces the old one', async () => {
      const { client, user } = await clientFor(test);
      const first = await client.request({
        method: 'POST',
        url: '/profile/?format=json',
        ...multipartBody({ handle: 'pic_user', display_name: 'Pic User' }, png),
      });
      expect(first.statusCode).toBe(200);
      const firstUrl: string = first.json().user.picture;
      expect(firstUrl).toMatch(/^\/media\/[A-Za-z0-9_-]{22}$/);
      const firstId = firstUrl.slice('/media/'.length);
      expect(await mediaRow(firstId)).toMatchObject({
        ownerId: user.id,
        contentType: 'image/png',
        byteSize: PNG_BYTES.byteLength,
      });

      // A GIF declared as a PNG is stored as what it is.
      const second = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody(
          { handle: 'pic_user', display_name: 'Pic User' },
          { ...png, data: GIF_BYTES },
        ),
      });
      expect(second.statusCode).toBe(200);
      const secondId = (second.json().user.picture as string).slice('/media/'.length);
      expect(secondId).not.toBe(firstId);
      expect((await mediaRow(secondId))?.contentType).toBe('image/gif');
      expect(await mediaRow(firstId)).toBeNull();
      expect((await userRow(user.id)).pictureMediaId).toBe(secondId);
    });

    it('keeps the picture when the form has an empty file input, removes it on remove_picture', async () => {
      const { client, user } = await clientFor(test);
      await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody({ handle: 'keep_pic', display_name: 'Keep' }, png),
      });
      const pictureId = (await userRow(user.id)).pictureMediaId!;

      const kept = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody(
          { handle: 'keep_pic', display_name: 'Keep 2' },
          {
            name: 'picture',
            filename: '',
            contentType: 'application/octet-stream',
            data: Buffer.alloc(0),
          },
        ),
      });
      expect(kept.statusCode).toBe(200);
      expect((await userRow(user.id)).pictureMediaId).toBe(pictureId);

      const removed = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody({ handle: 'keep_pic', display_name: 'Keep 3', remove_picture: 'on' }),
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().user.picture).toBeNull();
      expect(await mediaRow(pictureId)).toBeNull();
    });

    it('refuses a text file named .png and declared image/png', async () => {
      const { client, user } = await clientFor(test);
      const response = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody(
          { handle: 'spoofer', display_name: 'Spoofer' },
          { ...png, data: Buffer.from('<script>alert(1)</script> not an image') },
        ),
      });
      expect(response.statusCode).toBe(400);
      const errors = { picture: [PICTURE_TYPE_MESSAGE] };
      expect(response.json()).toEqual({
        error: MESSAGES.checkFormFields,
        errors,
        form: { errors },
      });
      const saved = await userRow(user.id);
      expect(saved.pictureMediaId).toBeNull();
      // Nothing of the form is saved when one field fails.
      expect(saved.handle).toBe(user.handle);
    });

    it('refuses an SVG', async () => {
      const { client } = await clientFor(test);
      const response = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody(
          { handle: 'svg_user', display_name: 'Svg' },
          {
            name: 'picture',
            filename: 'me.svg',
            contentType: 'image/svg+xml',
            data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
          },
        ),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ picture: [PICTURE_TYPE_MESSAGE] });
    });

    it('refuses a picture over PICTURE_MAX_BYTES, together with other field errors', async () => {
      const { client, user } = await clientFor(test);
      const big = Buffer.concat([PNG_BYTES, Buffer.alloc(PICTURE_MAX_BYTES)]);
      const response = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody({ handle: 'big_pic', display_name: '' }, { ...png, data: big }),
      });
      expect(response.statusCode).toBe(400);
      const errors = { display_name: ['Enter a display name.'], picture: [PICTURE_SIZE_MESSAGE] };
      expect(response.json()).toEqual({
        error: MESSAGES.checkFormFields,
        errors,
        form: { errors },
      });
      expect((await userRow(user.id)).pictureMediaId).toBeNull();
      const stored = await test.ctx.db
        .select({ id: schema.media.id })
        .from(schema.media)
        .where(eq(schema.media.ownerId, user.id));
      expect(stored).toEqual([]);
    });

    it('accepts a picture of exactly PICTURE_MAX_BYTES', async () => {
      const { client } = await clientFor(test);
      const exact = Buffer.concat([PNG_BYTES, Buffer.alloc(PICTURE_MAX_BYTES - PNG_BYTES.length)]);
      const response = await client.request({
        method: 'POST',
        url: '/profile/',
        ...multipartBody({ handle: 'exact_pic', display_name: 'Exact' }, { ...png, data: exact }),
      });
      expect(response.statusCode).toBe(200);
    });
  });
});
