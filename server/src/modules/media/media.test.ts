import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PICTURE_MAX_BYTES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { clientFor, GIF_BYTES, multipartBody, PNG_BYTES } from '../profile/testing.ts';
import { canViewMedia } from './policy.ts';
import {
  checkPicture,
  PICTURE_SIZE_MESSAGE,
  PICTURE_TYPE_MESSAGE,
  sniffPictureType,
  storeMedia,
} from './service.ts';

const JPEG_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP_BYTES = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(16),
]);

describe('sniffPictureType', () => {
  it.each([
    ['PNG', PNG_BYTES, 'image/png'],
    ['JPEG', JPEG_BYTES, 'image/jpeg'],
    ['GIF', GIF_BYTES, 'image/gif'],
    ['WebP', WEBP_BYTES, 'image/webp'],
    ['text', Buffer.from('hello, I am a .png'), null],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>'), null],
    ['BMP', Buffer.concat([Buffer.from('BM'), Buffer.alloc(40)]), null],
    [
      'RIFF that is not WebP',
      Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBM'), Buffer.alloc(8)]),
      null,
    ],
    ['empty', Buffer.alloc(0), null],
  ])('%s → %s', (_name, bytes, type) => {
    expect(sniffPictureType(bytes)).toBe(type);
  });

  it('checkPicture refuses truncated and oversize files', () => {
    expect(checkPicture(PNG_BYTES, true)).toEqual({ error: PICTURE_SIZE_MESSAGE });
    const big = Buffer.concat([PNG_BYTES, Buffer.alloc(PICTURE_MAX_BYTES)]);
    expect(checkPicture(big, false)).toEqual({ error: PICTURE_SIZE_MESSAGE });
    expect(checkPicture(Buffer.from('text'), false)).toEqual({ error: PICTURE_TYPE_MESSAGE });
    expect(checkPicture(PNG_BYTES, false)).toEqual({ contentType: 'image/png' });
  });
});

describe('media policy', () => {
  it('lets anyone see a profile picture and nobody anything else (yet)', () => {
    expect(canViewMedia(null, { isProfilePicture: true })).toBe(true);
    expect(canViewMedia(null, { isProfilePicture: false })).toBe(false);
  });
});

describe('GET /media/:media_id', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test?.close());

  it('serves a profile picture to anyone, with its stored type and safe headers', async () => {
    const { client } = await clientFor(test);
    const saved = await client.request({
      method: 'POST',
      url: '/profile/',
      ...multipartBody(
        { handle: 'media_user', display_name: 'Media' },
        // Declared as a PNG, but the bytes are a GIF: served as what it is.
        { name: 'picture', filename: 'me.png', contentType: 'image/png', data: GIF_BYTES },
      ),
    });
    const url: string = saved.json().user.picture;
    const response = await new TestClient(test.app).get(url, { headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(GIF_BYTES)).toBe(true);
    expect(response.headers['content-type']).toBe('image/gif');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const revalidated = await new TestClient(test.app).get(url, {
      headers: { accept: '*/*', 'if-none-match': response.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const anonymous = new TestClient(test.app);
    for (const id of ['doesNotExist123', '..%2F..%2Fetc', "x'%20or%201=1"]) {
      const response = await anonymous.get(`/media/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: MESSAGES.notFound });
    }
  });

  it('answers 404 for a stored file that is not a profile picture', async () => {
    const owner = await buildUser(test.ctx.db);
    const orphan = await storeMedia(test.ctx.db, owner.id, 'image/png', PNG_BYTES);
    const response = await new TestClient(test.app).get(`/media/${orphan}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: MESSAGES.notFound });
  });

  it('stops serving a picture once it is replaced', async () => {
    const { client } = await clientFor(test);
    const png = { name: 'picture', filename: 'a.png', contentType: 'image/png', data: PNG_BYTES };
    const first = await client.request({
      method: 'POST',
      url: '/profile/',
      ...multipartBody({ handle: 'replacer', display_name: 'R' }, png),
    });
    const oldUrl: string = first.json().user.picture;
    await client.request({
      method: 'POST',
      url: '/profile/',
      ...multipartBody({ handle: 'replacer', display_name: 'R' }, png),
    });
    expect((await new TestClient(test.app).get(oldUrl)).statusCode).toBe(404);
    const rows = await test.ctx.db.select({ id: schema.media.id }).from(schema.media);
    expect(rows.map((row) => `/media/${row.id}`)).not.toContain(oldUrl);
  });
});
