// Issue 34 items 3 and 4: a manuscript's changes have one writer, the commands of service.ts,
// whoever makes them (the author's routes, the admin section, the share panel), and each
// command's events are written in its transaction.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext, EventTx } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { lastEvent, noteEventWriters, writtenBy } from '../../test/event-rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { staffClients, type StaffClients } from '../admin/test-helpers.ts';
import { ARCHIVED_MESSAGE } from './service.ts';
import { buildManuscript } from './test-helpers.ts';

/** Which command ran, for whom: `edit by 12`. */
const calls = vi.hoisted(() => [] as string[]);

// Every command runs with a mark in its transaction that the trigger below records on each
// statement writing `manuscripts`: a write without it was made outside the commands.
vi.mock(import('./service.ts'), async (importOriginal) => {
  const real = await importOriginal();
  const marked = <Result>(
    ctx: AppContext,
    joining: EventTx | undefined,
    call: string,
    run: (tx: EventTx) => Promise<Result>,
  ) =>
    ctx.events.transaction(async (tx) => {
      calls.push(call);
      await tx.execute(sql`select set_config('margins.test_writer', 'command', true)`);
      const result = await run(tx);
      await tx.execute(sql`select set_config('margins.test_writer', '', true)`);
      return result;
    }, joining);
  return {
    ...real,
    editManuscript: (ctx, actor, manuscript, values, joining) =>
      marked(ctx, joining, `edit by ${actor.id}`, (tx) =>
        real.editManuscript(ctx, actor, manuscript, values, tx),
      ),
    changeVisibility: (ctx, actor, manuscript, visibility, joining) =>
      marked(ctx, joining, `visibility by ${actor.id}`, (tx) =>
        real.changeVisibility(ctx, actor, manuscript, visibility, tx),
      ),
    archiveManuscript: (ctx, actor, manuscript, joining) =>
      marked(ctx, joining, `archive by ${actor.id}`, (tx) =>
        real.archiveManuscript(ctx, actor, manuscript, tx),
      ),
  };
});

let test: TestApp;
let people: StaffClients;

beforeAll(async () => {
  test = await createTestApp();
  await noteEventWriters(test.ctx.db);
  people = await staffClients(test);
  await test.ctx.db.execute(sql`
    CREATE TABLE test_manuscript_writes (operation text NOT NULL, writer text NOT NULL)`);
  await test.ctx.db.execute(sql`
    CREATE FUNCTION test_note_manuscript_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO test_manuscript_writes
        VALUES (TG_OP, coalesce(current_setting('margins.test_writer', true), ''));
      RETURN NULL;
    END $$`);
  await test.ctx.db.execute(sql`
    CREATE TRIGGER test_note_manuscript_write AFTER INSERT OR UPDATE OR DELETE ON manuscripts
    FOR EACH STATEMENT EXECUTE FUNCTION test_note_manuscript_write()`);
});
afterAll(async () => {
  await test?.close();
});
beforeEach(async () => {
  calls.length = 0;
});

/** Forgets the writes recorded so far (a test's own setup). */
async function forgetWrites(): Promise<void> {
  await test.ctx.db.execute(sql`DELETE FROM test_manuscript_writes`);
}
/** The statements that wrote `manuscripts` since, each with whether a command made it. */
async function recordedWrites(): Promise<Array<{ operation: string; writer: string }>> {
  const result = (await test.ctx.db.execute(
    sql`SELECT operation, writer FROM test_manuscript_writes`,
  )) as unknown as { rows: Array<{ operation: string; writer: string }> };
  return result.rows;
}

const manuscriptOf = async (visibility: 'public' | 'private' = 'public') => {
  const manuscript = await buildManuscript(test.ctx.db, people.member.user, { visibility });
  await forgetWrites();
  return manuscript;
};

const row = async (id: number) =>
  (await test.ctx.db.select().from(schema.manuscripts).where(eq(schema.manuscripts.id, id)))[0]!;

describe('one writer per change', () => {
  it('the author and the admin change visibility and the mature setting through editManuscript', async () => {
    const manuscript = await manuscriptOf();
    const author = people.member;
    const edited = await author.client.post(`/manuscript/${manuscript.id}/edit`, {
      visibility: 'private',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const byAdmin = await people.admin.client.put(`/admin/api/manuscript/${manuscript.id}`, {
      visibility: 'logged_in',
      title: 'Retitled by staff',
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const inline = await people.admin.client.post(`/admin/api/manuscript/${manuscript.id}/field`, {
      name: 'nsfw',
      value: true,
    });
    expect(inline.statusCode, inline.body).toBe(200);

    expect(calls).toEqual([
      `edit by ${author.user.id}`,
      `edit by ${people.admin.user.id}`,
      `edit by ${people.admin.user.id}`,
    ]);
    const writes = await recordedWrites();
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((write) => write.writer !== 'command')).toEqual([]);
    expect(await row(manuscript.id)).toMatchObject({
      visibility: 'logged_in',
      title: 'Retitled by staff',
      nsfw: true,
    });
  });

  it('the share panel changes visibility through changeVisibility', async () => {
    const manuscript = await manuscriptOf('private');
    const link = await people.member.client.post(`/manuscript/${manuscript.id}/invite/link`, {
      access: 'restricted',
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(calls).toEqual([`visibility by ${people.member.user.id}`]);
    expect((await recordedWrites()).filter((write) => write.writer !== 'command')).toEqual([]);
    expect((await row(manuscript.id)).visibility).toBe('restricted');
  });

  it('the author, the admin and the admin bulk delete archive through archiveManuscript', async () => {
    const [own, staffs, bulk] = [await manuscriptOf(), await manuscriptOf(), await manuscriptOf()];
    expect((await people.member.client.delete(`/manuscript/${own.id}`)).statusCode).toBe(200);
    const single = await people.admin.client.delete(`/admin/api/manuscript/${staffs.id}`);
    expect(single.statusCode, single.body).toBe(200);
    const many = await people.admin.client.post('/admin/api/manuscript/bulk', {
      action: 'delete',
      ids: [bulk.id],
    });
    expect(many.statusCode, many.body).toBe(200);

    expect(calls).toEqual([
      `archive by ${people.member.user.id}`,
      `archive by ${people.admin.user.id}`,
      `archive by ${people.admin.user.id}`,
    ]);
    const writes = await recordedWrites();
    expect(writes.length).toBe(3);
    expect(writes.filter((write) => write.writer !== 'command')).toEqual([]);
    for (const manuscript of [own, staffs, bulk]) {
      expect((await row(manuscript.id)).archivedAt).toBeInstanceOf(Date);
    }
  });
});

describe('the commands and their events', () => {
  const eventsOf = async (manuscriptId: number) => {
    const rows = await test.ctx.db
      .select({ name: schema.events.name, payload: schema.events.payload })
      .from(schema.events)
      .where(sql`${schema.events.payload} ->> 'manuscriptId' = ${String(manuscriptId)}`)
      .orderBy(schema.events.id);
    return rows.map((event) => event.name);
  };

  it('archiving writes its event in its transaction, and only when it archived', async () => {
    const manuscript = await manuscriptOf();
    expect((await people.member.client.delete(`/manuscript/${manuscript.id}`)).statusCode).toBe(
      200,
    );
    const event = await lastEvent(test.ctx.db, 'manuscript.archived');
    expect(event.payload).toEqual({ manuscriptId: manuscript.id });
    expect(event.writtenBy).toBe(
      await writtenBy(test.ctx.db, schema.manuscripts, eq(schema.manuscripts.id, manuscript.id)),
    );
    // Staff deleting it again: nothing changes, no second event (the author's used to send one).
    expect(
      (await people.admin.client.delete(`/admin/api/manuscript/${manuscript.id}`)).statusCode,
    ).toBe(200);
    expect(await eventsOf(manuscript.id)).toEqual(['manuscript.archived']);
  });

  it('an edit emits only what really changed, by whoever made it', async () => {
    const manuscript = await manuscriptOf();
    await people.member.client.post(`/manuscript/${manuscript.id}/edit`, {
      visibility: 'public',
      title: 'Same visibility',
    });
    expect(await eventsOf(manuscript.id)).toEqual([]);
    await people.admin.client.put(`/admin/api/manuscript/${manuscript.id}`, {
      visibility: 'private',
      nsfw: true,
    });
    expect(await eventsOf(manuscript.id)).toEqual([
      'manuscript.visibility_changed',
      'manuscript.gate_changed',
    ]);
    const [changed] = await test.ctx.db
      .select()
      .from(schema.events)
      .where(eq(schema.events.name, 'manuscript.visibility_changed'))
      .orderBy(sql`${schema.events.id} desc`)
      .limit(1);
    expect(changed).toMatchObject({
      actorId: people.admin.user.id,
      payload: { manuscriptId: manuscript.id, from: 'public', to: 'private' },
    });
  });

  it('refuses to change an archived manuscript, for staff too (409 with why)', async () => {
    const manuscript = await manuscriptOf();
    await people.member.client.delete(`/manuscript/${manuscript.id}`);
    const staff = await people.admin.client.put(`/admin/api/manuscript/${manuscript.id}`, {
      title: 'Too late',
    });
    expect(staff.statusCode).toBe(409);
    expect(staff.json().error).toBe(ARCHIVED_MESSAGE);
    expect((await row(manuscript.id)).title).not.toBe('Too late');
    // The author's own routes do not find it at all.
    const author = await people.member.client.post(`/manuscript/${manuscript.id}/edit`, {
      title: 'Too late',
    });
    expect(author.statusCode).toBe(404);
  });
});
