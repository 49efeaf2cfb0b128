import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScene, postComment } from '../modules/comments/test-helpers.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { schema } from '../db/index.ts';
import { registerStatic } from './static.ts';
import { matchesIfNoneMatch, registerWire } from './wire.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const QUOTE = 'kept the old charts';

describe('compression', () => {
  it('sends JSON as brotli or gzip by Accept-Encoding, and as is without it', async () => {
    const client = new TestClient(test.app);
    const plain = await client.get('/api/openapi.json', { headers: { 'accept-encoding': '' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const size = plain.rawPayload.length;
    expect(size).toBeGreaterThan(10_000);

    const brotli = await client.get('/api/openapi.json', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(size / 4);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);

    const gzip = await client.get('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves small answers uncompressed', async () => {
    const response = await new TestClient(test.app).get('/healthz', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('compresses pages, which are never cached and carry no ETag', async () => {
    const author = await buildUser(test.ctx.db, { about: 'A long story about me. '.repeat(200) });
    const page = await new TestClient(test.app).get(`/profile/get/${author.id}`, {
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers.etag).toBeUndefined();
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('A long story about me.');
  });
});

describe('ETag and 304', () => {
  it('answers a repeated JSON GET with 304 and no body, and marks API answers private', async () => {
    const client = new TestClient(test.app);
    const first = await client.get('/api/openapi.json', { headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await client.get('/api/openapi.json', {
      headers: { 'if-none-match': etag, 'accept-encoding': 'br' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await client.get('/api/openapi.json', { headers: { 'if-none-match': '"nope"' } });
    expect(other.statusCode).toBe(200);
  });

  it('gives no ETag to writes or errors', async () => {
    const client = new TestClient(test.app);
    const missing = await client.get('/comments/manuscript/999999');
    expect(missing.statusCode).toBeGreaterThanOrEqual(400);
    expect(missing.headers.etag).toBeUndefined();
    const write = await client.post('/contact', { name: 'x' });
    expect(write.headers.etag).toBeUndefined();
  });

  it('changes the comments ETag for those who may see a private comment change, and only for them', async () => {
    const scene = await buildScene(test, { privateComments: true });
    const url = `/comments/manuscript/${scene.manuscript.id}`;
    const posted = await postComment(scene.writer.client, scene.manuscript.id, QUOTE, 'First');
    // Older than the cursor's safety margin, as a list at rest is.
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const table of [schema.comments, schema.highlights]) {
      await test.ctx.db
        .update(table)
        .set({ createdAt: minuteAgo, updatedAt: minuteAgo, changedAt: minuteAgo })
        .where(eq(table.manuscriptId, scene.manuscript.id));
    }
    const etagOf = async (client: TestClient) => (await client.get(url)).headers.etag as string;
    // At rest, the same list answers the same ETag.
    expect(await etagOf(scene.reader.client)).toBe(await etagOf(scene.reader.client));
    const before = {
      owner: await etagOf(scene.owner.client),
      reader: await etagOf(scene.reader.client),
    };
    const edited = await scene.writer.client.put(`/comments/${posted.comment.id}`, {
      comment: 'Second thoughts',
    });
    expect(edited.statusCode).toBe(200);
    expect(await etagOf(scene.owner.client)).not.toBe(before.owner);
    expect(await etagOf(scene.reader.client)).toBe(before.reader);
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    expect(matchesIfNoneMatch('"a", "b"', '"b"')).toBe(true);
    expect(matchesIfNoneMatch('W/"b"', '"b"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"b"')).toBe(true);
    expect(matchesIfNoneMatch('"a"', '"b"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"b"')).toBe(false);
  });
});

describe('built assets', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'margins-wire-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, 'static'));
    const script = Buffer.from('console.log("hello, reader");\n'.repeat(200));
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(script));
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('sends the precompressed file with long-lived immutable caching', async () => {
    const app = fastify();
    await registerWire(app);
    await registerStatic(app, dist);
    const brotli = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain('hello, reader');
    const gzip = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const revalidated = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': brotli.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
    await app.close();
  });
});
