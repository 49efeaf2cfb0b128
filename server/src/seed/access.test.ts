import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark, Invite, ReaderPageResponse } from '@margins/common';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { clientFor, getPage, pageConfigOf } from '../modules/invites/test-helpers.ts';
import { seedDemoData } from './index.ts';

let test: TestApp;
const clients: Record<string, TestClient> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  test = await createTestApp();
  await seedDemoData(test.ctx);
  for (const handle of ['june_reads', 'sam_inkwell', 'ada_quill', 'tomas_reyes']) {
    const [user] = await test.ctx.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.handle, handle));
    clients[handle] = await clientFor(test, user!);
  }
  for (const row of await test.ctx.db.select().from(schema.manuscripts)) ids[row.title] = row.id;
});
afterAll(async () => {
  await test?.close();
});

const reader = async (handle: string, title: string) =>
  (
    await clients[handle]!.get(`/manuscript/document/reader/${ids[title]}`)
  ).json() as ReaderPageResponse;

describe('demo access data', () => {
  it('screens the private notes with a questionnaire: June approved, Sam awaiting Tomás', async () => {
    const june = await reader('june_reads', 'Night Shift Notes');
    expect(june.gate).toBeNull();
    expect(june.html).toContain('Night Shift Notes');
    const sam = await reader('sam_inkwell', 'Night Shift Notes');
    expect(sam).toMatchObject({ gate: 'awaiting_approval', html: '' });
    const { answers } = (
      await clients.tomas_reyes!.get(
        `/manuscript/${ids['Night Shift Notes']}/survey/questionaire/responses`,
      )
    ).json();
    expect(
      answers.map((answer: { score: number; approved: boolean }) => [
        answer.score,
        answer.approved,
      ]),
    ).toEqual([
      [50, false],
      [100, true],
    ]);
    const { invites } = (
      await clients.tomas_reyes!.get(`/manuscript/${ids['Night Shift Notes']}/invites`)
    ).json();
    expect((invites as Invite[]).map((invite) => invite.kind).sort()).toEqual([
      'email',
      'link',
      'user',
      'user',
    ]);
  });

  it('has a feedback survey on the novel that both readers answered', async () => {
    const june = await reader('june_reads', 'The Cartographer’s Silence');
    expect(june).toMatchObject({
      gate: null,
      feedback_submitted: true,
      feedback_survey: { surveyType: 'feedback' },
    });
    const { answers } = (
      await clients.ada_quill!.get(
        `/manuscript/${ids['The Cartographer’s Silence']}/survey/feedback/responses`,
      )
    ).json();
    expect(answers).toHaveLength(2);
  });

  it("fills June's dashboard with reads (with progress) and a pending invite", async () => {
    const data = pageConfigOf(await getPage(clients.june_reads!, '/dashboard')).data as {
      bookmarks: Bookmark[];
      invites: Invite[];
    };
    expect(
      data.bookmarks.map((read) => [read.manuscript.title, read.progress.percent]).sort(),
    ).toEqual([
      ['Night Shift Notes', 40],
      ['The Cartographer’s Silence', 62],
    ]);
    expect(data.invites.map((invite) => invite.manuscript.title)).toEqual(['Small Hours']);
  });
});
