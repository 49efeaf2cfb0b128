import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildScene, revokeReader } from '../comments/test-helpers.ts';
import { tablesTouched } from '../../test/tables-read.ts';
import { readerMeta } from './reader.ts';
import { acceptedEncoding, READER_META_TABLES, readerViewerParts } from './reader-wire.ts';

// The reader's JSON from the version's stored, compressed part (issue 11 item 1).

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test?.close();
});

const readerUrl = (id: number) => `/manuscript/document/reader/${id}`;

describe("the reader's text on the wire", () => {
  it('sends brotli and gzip that decode to exactly the plain answer', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const plain = await scene.reader.client.get(url);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = plain.json();
    expect(expected.html).toContain('cedar');

    const brotli = await scene.reader.client.get(url, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(expected);

    const gzip = await scene.reader.client.get(url, {
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(expected);

    // The owner's answer differs in their own fields, and only there.
    const owner = await scene.owner.client.get(url, { headers: { 'accept-encoding': 'br' } });
    const ownerView = JSON.parse(brotliDecompressSync(owner.rawPayload).toString());
    expect(ownerView.current_user_id).toBe(scene.owner.user.id);
    expect(ownerView.html).toBe(expected.html);
    expect(owner.headers.etag).not.toBe(brotli.headers.etag);
  });

  it('keeps the compressed part, and answers a returning reader 304 by the version alone', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const headers = { 'accept-encoding': 'br, gzip' };
    const first = await scene.reader.client.get(url, { headers });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"r\d+-[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const versionId = Number(etag.slice(2, etag.indexOf('-')));
    const stored = await test.ctx.db
      .select({ versionId: schema.manuscriptVersionWire.versionId })
      .from(schema.manuscriptVersionWire)
      .where(eq(schema.manuscriptVersionWire.versionId, versionId));
    expect(stored).toHaveLength(1);

    // A version never changes once converted: the stored bytes are what is sent from now on
    // (changed here behind the server's back only to show the text is not read again).
    await test.ctx.db
      .update(schema.manuscriptVersions)
      .set({ html: '<p id="x">Changed behind our back</p>' })
      .where(eq(schema.manuscriptVersions.id, versionId));
    const again = await scene.reader.client.get(url, {
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The app asks with ?format=json (its own entry in the browser's cache): the same answer.
    const full = await scene.reader.client.get(`${url}?format=json`, { headers });
    expect(full.headers.etag).toBe(etag);
    expect(brotliDecompressSync(full.rawPayload).toString()).toContain('cedar');

    // What differs per viewer moves the ETag: the reader's access changes their answer.
    const other = await scene.writer.client.get(url, {
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);
  });

  it('refuses strangers and anonymous callers as before', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const stranger = await scene.stranger.client.get(url, { headers: { 'accept-encoding': 'br' } });
    expect(stranger.statusCode).toBe(404);
    const anonymous = await scene.anonymous.get(url, { headers: { 'accept-encoding': 'br' } });
    expect(anonymous.statusCode).toBe(404);
  });
});

describe("the reader page's preload of its text (issue 18)", () => {
  it('preloads the JSON answer where the text shows at once, and answers it without an Accept header', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const page = await scene.reader.client.get(url, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // As the app's client asks for it (credentials included), or the browser would not use it.
    expect(page.body).toContain(
      `<link rel="preload" href="${url}?format=json" as="fetch" crossorigin="use-credentials">`,
    );
    // Only the text: the comments' list can take the server a while, and the app asks itself.
    expect(page.body.match(/as="fetch"/g)).toHaveLength(1);

    // What the browser's preload sends: no JSON in its Accept header, the query says it.
    const preloaded = await scene.reader.client.get(`${url}?format=json`, {
      headers: { accept: '*/*' },
    });
    expect(preloaded.statusCode, preloaded.body).toBe(200);
    expect(preloaded.headers['content-type']).toMatch(/^application\/json/);
    expect(preloaded.json().html).toContain('cedar');
    // Any other format, or several, is still the page.
    for (const query of ['?format=pdf', '?format=json&format=pdf']) {
      const other = await scene.reader.client.get(`${url}${query}`, {
        headers: { accept: 'text/html' },
      });
      expect(other.statusCode, query).toBe(200);
      expect(other.headers['content-type'], query).toMatch(/^text\/html/);
    }
  });

  it('preloads nothing for those who may not read it, and answers them as before', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    for (const client of [scene.stranger.client, scene.anonymous]) {
      const page = await client.get(url, { headers: { accept: 'text/html' } });
      expect(page.body).not.toContain('as="fetch"');
      const json = await client.get(`${url}?format=json`, { headers: { accept: '*/*' } });
      expect(json.statusCode).toBe(404);
      expect(json.body).not.toContain('cedar');
    }
  });
});

describe("the reader's kept viewer part", () => {
  it('answers a repeat from memory, and a change the reader may see at once', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const headers = { 'accept-encoding': 'br' };
    const view = async () => {
      const answer = await scene.reader.client.get(url, { headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return {
        etag: String(answer.headers.etag),
        json: JSON.parse(brotliDecompressSync(answer.rawPayload).toString()),
      };
    };
    const first = await view();
    const again = await view();
    expect(again).toEqual(first);
    expect(readerViewerParts.of(test.ctx).size().entries).toBeGreaterThan(0);

    // The title is in the viewer's part: renamed, the next answer has it and a new ETag.
    await test.ctx.db
      .update(schema.manuscripts)
      .set({ title: 'A New Title' })
      .where(eq(schema.manuscripts.id, scene.manuscript.id));
    const renamed = await view();
    expect(renamed.json.manuscript.title).toBe('A New Title');
    expect(renamed.etag).not.toBe(first.etag);

    // The reader's progress is in it too: a reading-time batch writes bookmarks, which the
    // viewer's part reads, and the next answer has it.
    expect((await scene.reader.client.post(`/bookmark/${scene.manuscript.id}`)).statusCode).toBe(
      200,
    );
    const bookmarked = await view();
    const read = await scene.reader.client.post(`/bookmark/${scene.manuscript.id}/reading`, {
      position: { block_idx: 2, percent: 60 },
    });
    expect(read.statusCode, read.body).toBe(200);
    const progressed = await view();
    expect(progressed.json.bookmark?.progress).toMatchObject({ block_idx: 2, percent: 60 });
    expect(progressed.etag).not.toBe(bookmarked.etag);

    // A revoked reader is refused at once, kept answer or not.
    await revokeReader(test.ctx.db, scene.manuscript.id, scene.reader.user.id);
    const revoked = await scene.reader.client.get(url, { headers });
    expect(revoked.statusCode).toBe(404);
    expect(readerViewerParts.of(test.ctx).size().bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});

describe('what a kept viewer part depends on', () => {
  it('reads no table but those it declares (the database counts them)', async () => {
    if (test.database.kind !== 'pglite') return;
    const scene = await buildScene(test);
    const [survey] = await test.ctx.db
      .insert(schema.surveys)
      .values({ manuscriptId: scene.manuscript.id, surveyType: 'questionaire', questions: {} })
      .returning();
    await test.ctx.db.insert(schema.surveyAnswers).values({
      surveyId: survey!.id,
      userId: scene.reader.user.id,
      answers: {},
      approvedAt: new Date(),
    });
    expect((await scene.reader.client.post(`/bookmark/${scene.manuscript.id}`)).statusCode).toBe(
      200,
    );
    for (const viewer of [scene.reader.user, scene.owner.user, scene.stranger.user, null]) {
      const touched = await tablesTouched(test.ctx, (ctx) =>
        readerMeta(ctx, viewer, scene.manuscript.id).catch(() => null),
      );
      expect(touched.read.has('manuscripts')).toBe(true);
      expect(
        [...touched.read].filter((table) => !READER_META_TABLES.includes(table as never)),
      ).toEqual([]);
      expect([...touched.written]).toEqual([]);
    }
  });
});

describe('a client that takes no compression', () => {
  it('gets the kept text and tail unpacked: the same answer, without building it', async () => {
    const scene = await buildScene(test);
    const url = readerUrl(scene.manuscript.id);
    const br = await scene.reader.client.get(url, { headers: { 'accept-encoding': 'br' } });
    const plain = await scene.reader.client.get(url, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBe(br.headers.etag);
    expect(plain.json()).toEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()));
    const built = readerViewerParts.of(test.ctx).computations();
    const again = await scene.reader.client.get(url, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(again.body).toBe(plain.body);
    expect(readerViewerParts.of(test.ctx).computations()).toBe(built);
  });
});

describe('acceptedEncoding', () => {
  it('prefers brotli, honours q=0, and knows no other', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('deflate')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
