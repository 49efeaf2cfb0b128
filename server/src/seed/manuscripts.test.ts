import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoverResponse } from '@margins/common';
import { shelfManuscript } from './shelf.ts';
import { schema } from '../db/index.ts';
import { createTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { seedDemoData } from './index.ts';
import { cartographerNovel } from './prose.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
  // How long the seed takes is bench/start.bench.ts's measure, not a timed test's.
  await seedDemoData(test.ctx);
});
afterAll(async () => {
  await test?.close();
});

describe('demo manuscripts', () => {
  it('gives the demo authors converted manuscripts in several formats and visibilities', async () => {
    const rows = await test.ctx.db
      .select({
        title: schema.manuscripts.title,
        handle: schema.users.handle,
        visibility: schema.manuscripts.visibility,
        nsfw: schema.manuscripts.nsfw,
        words: schema.manuscripts.words,
        inking: schema.manuscripts.inking,
        format: schema.manuscriptVersions.sourceFormat,
      })
      .from(schema.manuscripts)
      .innerJoin(schema.users, eq(schema.users.id, schema.manuscripts.userId))
      .innerJoin(
        schema.manuscriptVersions,
        eq(schema.manuscriptVersions.id, schema.manuscripts.currentVersionId),
      )
      // The demo authors' own; the shelf of generated ones is tested below.
      .where(inArray(schema.users.handle, ['ada_quill', 'tomas_reyes']));
    expect(rows.map((row) => row.handle).sort()).toEqual([
      'ada_quill',
      'ada_quill',
      'tomas_reyes',
      'tomas_reyes',
    ]);
    expect(new Set(rows.map((row) => row.format))).toEqual(new Set(['md', 'html', 'txt']));
    expect(new Set(rows.map((row) => row.visibility))).toEqual(
      new Set(['public', 'logged_in', 'private']),
    );
    expect(rows.filter((row) => row.nsfw)).toHaveLength(1);
    expect(rows.every((row) => !row.inking)).toBe(true);
    const novel = rows.find((row) => row.title === 'The Cartographer’s Silence')!;
    expect(novel.words).toBeGreaterThan(30_000);
    expect(novel.words).toBeLessThan(60_000);
  });

  it('opens the long novel in the reader for anyone, with its chapters in the TOC', async () => {
    const [novel] = await test.ctx.db
      .select({ id: schema.manuscripts.id })
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.title, 'The Cartographer’s Silence'));
    const reader = await new TestClient(test.app).get(`/manuscript/document/reader/${novel!.id}`);
    expect(reader.statusCode).toBe(200);
    const body = reader.json();
    expect(body.manuscript.genres.map((genre: { name: string }) => genre.name)).toEqual([
      'Adventure',
      'Fantasy',
      'Literary',
    ]);
    expect(body.toc.filter((entry: { level: number }) => entry.level === 1)).toHaveLength(21);
    expect(body.toc.filter((entry: { level: number }) => entry.level === 2)).toHaveLength(3);
    expect(body.html).toContain('<em>');
    expect(body.html).toMatch(/<hr[^>]*scene-break/);
  });

  it('writes the same novel every time', () => {
    expect(cartographerNovel(2_000)).toBe(cartographerNovel(2_000));
    expect(cartographerNovel()).not.toMatch(/lorem|ipsum/i);
  });
});

describe('the demo shelf', () => {
  it('makes Discover alive: dozens of public manuscripts in every category, found by search', async () => {
    const found = await new TestClient(test.app).post('/discover/', { q: '' });
    const body = found.json() as DiscoverResponse;
    expect(body.total).toBeGreaterThanOrEqual(24);
    expect(body.facets.categories.map((facet) => facet.category).sort()).toEqual([
      'fiction',
      'non-fiction',
      'poetry',
    ]);
    const dragons = (await new TestClient(test.app).post('/discover/', { q: 'dargon' })).json();
    expect((dragons as DiscoverResponse).total).toBeGreaterThan(0);
    expect(shelfManuscript(3)).toEqual(shelfManuscript(3));
  });
});
