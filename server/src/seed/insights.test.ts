import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightsResponse } from '@margins/common';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { clientFor } from '../modules/invites/test-helpers.ts';
import { seedDemoData } from './index.ts';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
  await seedDemoData(test.ctx);
});

afterAll(async () => {
  await test?.close();
});

describe('demo reading insights', () => {
  it("gives Ada's novel readers at different points: finished, stalled, stopped, not started", async () => {
    const [ada] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.handle, 'ada_quill'));
    const [novel] = await test.ctx.db
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.title, 'The Cartographer’s Silence'));
    const client = await clientFor(test, ada!);
    const response = await client.get(`/manuscript/${novel!.id}/insights`);
    expect(response.statusCode, response.body).toBe(200);
    const insights = response.json() as InsightsResponse;
    expect(insights.readers.length).toBeGreaterThanOrEqual(8);
    expect(insights.started).toBeGreaterThanOrEqual(7);
    expect(insights.readers.some((reader) => reader.finished)).toBe(true);
    expect(insights.readers.some((reader) => reader.furthest_chapter === null)).toBe(true);
    expect(insights.readers.filter((reader) => reader.stopped)).toHaveLength(2);
    const reached = insights.chapters.map((chapter) => chapter.reached);
    expect(reached[0]).toBe(insights.started);
    expect(reached[reached.length - 1]).toBeLessThan(insights.started);
    expect(insights.chapters.some((chapter) => chapter.minutes_per_1000 !== null)).toBe(true);
  });
});
