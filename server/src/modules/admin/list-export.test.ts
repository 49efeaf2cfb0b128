import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_MAX_PAGE, UNKNOWN_LIST_FIELD } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { exportBatches } from './export.ts';
import { parseAdminListQuery } from './list.ts';
import { sectionNamed } from './registry.ts';
import { buildReportReason, staffClients, type StaffClients } from './test-helpers.ts';

let test: TestApp;
let people: StaffClients;

beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
  const { db } = test.ctx;
  await db.delete(schema.reportReasons); // the migrations' own reasons
  // 23 report reasons: positions 0..22, every third inactive; one with a % in its name.
  for (let index = 0; index < 22; index++) {
    await db.insert(schema.reportReasons).values({
      reason: `Reason ${String(index).padStart(2, '0')}`,
      position: index,
      active: index % 3 !== 0,
    });
  }
  await db.insert(schema.reportReasons).values({ reason: '100% spam', position: 22 });
});
afterAll(() => test.close());

const get = (url: string) => people.admin.client.get(url);

describe('lists: paging, sorting, filtering, searching in SQL', () => {
  it('pages with a total, and answers the last page past the end', async () => {
    const first = (await get('/admin/api/report-reason?per_page=10')).json();
    expect(first.total).toBe(23);
    expect(first.items).toHaveLength(10);
    expect(first.items[0].reason).toBe('Reason 00');
    expect(first.page).toMatchObject({ current: 1, last_page: 3, next: 2 });
    const far = (await get(`/admin/api/report-reason?per_page=10&page=${LIST_MAX_PAGE}`)).json();
    expect(far.page.current).toBe(3);
    expect(far.items).toHaveLength(3);
  });

  it.each([
    ['page', `page=${LIST_MAX_PAGE + 1}`],
    ['page', 'page=0'],
    ['page', 'page=1e400'],
    ['per_page', 'per_page=1000000'],
    ['per_page', 'per_page=0'],
    ['sort', 'sort=password_hash'],
    ['order', 'order=sideways'],
    ['nope', 'nope=1'],
    ['active', 'active=maybe'],
    ['position', 'position=abc'],
    ['position', 'position=99999999999999'],
  ])('refuses a bad %s with a 400 naming it (%s)', async (field, query) => {
    const response = await get(`/admin/api/report-reason?${query}`);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toEqual([field]);
  });

  it('names an unknown field as such', async () => {
    const response = await get('/admin/api/user?password_hash=x');
    expect(response.json().errors).toEqual({ password_hash: [UNKNOWN_LIST_FIELD] });
  });

  it('sorts both ways by a number, a text and a date', async () => {
    const desc = (await get('/admin/api/report-reason?sort=position&order=desc&per_page=3')).json();
    expect(desc.items.map((item: { position: number }) => item.position)).toEqual([22, 21, 20]);
    const byName = (await get('/admin/api/report-reason?sort=reason&order=asc&per_page=2')).json();
    expect(byName.items.map((item: { reason: string }) => item.reason)).toEqual([
      '100% spam',
      'Reason 00',
    ]);
    const users = (await get('/admin/api/user?sort=created_at&order=asc')).json();
    const dates = users.items.map((item: { created_at: string }) => item.created_at);
    expect(dates).toEqual([...dates].sort());
  });

  it('filters by a boolean, an enum and a date', async () => {
    const inactive = (await get('/admin/api/report-reason?active=false')).json();
    expect(inactive.total).toBe(8);
    const moderators = (await get('/admin/api/user?role=moderator')).json();
    expect(moderators.items.map((item: { id: number }) => item.id)).toEqual([
      people.moderator.user.id,
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/admin/api/user?created_at=${today}`)).json().total).toBe(3);
    expect((await get('/admin/api/user?created_at=2001-01-01')).json().total).toBe(0);
    expect((await get('/admin/api/user?role=emperor')).statusCode).toBe(400);
    expect((await get('/admin/api/user?created_at=2020-13-45')).statusCode).toBe(400);
  });

  it('searches as plain text: SQL and LIKE patterns are only characters', async () => {
    const percent = (await get(`/admin/api/report-reason?q=${encodeURIComponent('%')}`)).json();
    expect(percent.items.map((item: { reason: string }) => item.reason)).toEqual(['100% spam']);
    for (const q of ["'; drop table users; --", "x' or '1'='1", '\\', '%_%']) {
      const response = await get(`/admin/api/user?q=${encodeURIComponent(q)}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().total).toBe(0);
    }
    expect((await get('/admin/api/user')).json().total).toBe(3);
    const found = (await get(`/admin/api/user?q=${people.moderator.user.handle}`)).json();
    expect(found.items.map((item: { id: number }) => item.id)).toEqual([people.moderator.user.id]);
  });

  it('does not let a moderator sort, filter or search by what they may not see', async () => {
    const moderator = people.moderator.client;
    expect((await moderator.get('/admin/api/user?sort=email')).statusCode).toBe(400);
    expect(
      (await moderator.get(`/admin/api/user?email=${people.admin.user.email}`)).statusCode,
    ).toBe(400);
    const byAddress = (
      await moderator.get(`/admin/api/user?q=${encodeURIComponent(people.admin.user.email)}`)
    ).json();
    expect(byAddress.total).toBe(0);
  });
});

describe('lookups', () => {
  it('offers at most 20 options of the referenced section, matched by label or id', async () => {
    const author = await buildUser(test.ctx.db, { displayName: 'Zelda Lookup' });
    const manuscript = await buildManuscript(test.ctx.db, author, { title: 'Looked up' });
    const byName = (await get('/admin/api/manuscript/lookup?field=user_id&q=zelda')).json();
    expect(byName.options).toEqual([{ id: author.id, label: 'Zelda Lookup' }]);
    const own = (await get(`/admin/api/manuscript/lookup?field=id&q=${manuscript.id}`)).json();
    expect(own.options).toContainEqual({ id: manuscript.id, label: 'Looked up' });
    const reasons = (await get('/admin/api/report-reason/lookup?field=id')).json();
    expect(reasons.options).toHaveLength(20);
  });

  it('refuses a field that is not a reference, and a section the role may not use', async () => {
    const notReference = await get('/admin/api/manuscript/lookup?field=title');
    expect(notReference.statusCode).toBe(400);
    expect(notReference.json().errors.field).toBeDefined();
    expect((await get('/admin/api/manuscript/lookup')).statusCode).toBe(400);
    // Moderators look up users (by name, never by address) but not bookmarks.
    const moderator = people.moderator.client;
    const users = (
      await moderator.get(
        `/admin/api/comment/lookup?field=author_id&q=${encodeURIComponent(people.admin.user.email)}`,
      )
    ).json();
    expect(users.options).toEqual([]);
    expect((await moderator.get('/admin/api/bookmark/lookup?field=user_id')).statusCode).toBe(403);
  });
});

/** A CSV of our exports back into rows (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  return rows;
}

describe('exports', () => {
  beforeAll(async () => {
    // Text a spreadsheet would run, quotes and commas, line breaks.
    await buildReportReason(test.ctx.db, '=HYPERLINK("http://evil.example","click"), "quoted"');
    await test.ctx.db
      .update(schema.reportReasons)
      .set({ description: 'two\nlines' })
      .where(eq(schema.reportReasons.reason, 'Reason 01'));
  });

  it('streams CSV with the list’s filter and order, cells escaped, formulas defused', async () => {
    const response = await get('/admin/api/report-reason/export/csv?sort=position&order=desc');
    expect(response.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="report-reason-${today}.csv"`,
    );
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual([
      'id',
      'reason',
      'description',
      'description_required',
      'position',
      'active',
      'created_at',
    ]);
    expect(rows).toHaveLength(1 + 24);
    const positions = rows.slice(1).map((row) => Number(row[4]));
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
    const formula = rows.find((row) => row[1]!.includes('HYPERLINK'))!;
    expect(formula[1]).toBe(`'=HYPERLINK("http://evil.example","click"), "quoted"`);
    expect(rows.find((row) => row[1] === 'Reason 01')![2]).toBe('two\nlines');
    const inactive = parseCsv((await get('/admin/api/report-reason/export/csv?active=false')).body);
    expect(inactive).toHaveLength(1 + 8);
  });

  it('streams JSON that parses back to the list’s items', async () => {
    const exported = (
      await get('/admin/api/report-reason/export/json?q=Reason&sort=reason')
    ).json();
    const listed = (await get('/admin/api/report-reason?q=Reason&sort=reason&per_page=100')).json();
    expect(exported).toEqual(listed.items);
  });

  it('streams XLSX that exceljs reads back', async () => {
    const response = await get('/admin/api/user/export/xlsx?sort=id&order=asc');
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(
      expect.arrayContaining(['id', 'display_name', 'email', 'role', 'created_at']),
    );
    expect(header).not.toContain('password_hash');
    const listed = (await get('/admin/api/user?sort=id&order=asc')).json();
    expect(sheet.rowCount).toBe(1 + listed.total);
    const emailColumn = header.indexOf('email') + 1;
    const createdColumn = header.indexOf('created_at') + 1;
    listed.items.forEach(
      (item: { id: number; email: string; created_at: string }, index: number) => {
        const row = sheet.getRow(index + 2);
        expect(row.getCell(1).value).toBe(item.id);
        expect(row.getCell(emailColumn).value).toBe(item.email);
        expect((row.getCell(createdColumn).value as Date).toISOString()).toBe(item.created_at);
      },
    );
  });

  it('leaves out what the role may not see, and never secrets', async () => {
    const moderatorCsv = (await people.moderator.client.get('/admin/api/user/export/csv')).body;
    expect(moderatorCsv).not.toContain('@example.test');
    const adminCsv = (await get('/admin/api/user/export/csv')).body;
    expect(adminCsv).toContain(people.admin.user.email);
    expect(adminCsv).not.toContain(people.admin.user.passwordHash);
  });

  it('reads in keyset batches that give every row once, in the list order, nulls and ties too', async () => {
    const { db } = test.ctx;
    const author = await buildUser(db);
    for (let index = 0; index < 17; index++) {
      // Titles repeat (ties), words too, and some are archived (archived_at: nulls and values).
      const manuscript = await buildManuscript(db, author, { title: `Tie ${index % 3}` });
      await db
        .update(schema.manuscripts)
        .set({
          words: index % 4,
          archivedAt: index % 2 ? sql`now() - (${index} || ' minutes')::interval` : null,
        })
        .where(eq(schema.manuscripts.id, manuscript.id));
    }
    const section = sectionNamed('manuscript')!;
    for (const sort of ['title', 'words', 'archived_at', 'created_at', 'id', 'visibility']) {
      for (const order of ['asc', 'desc']) {
        const query = parseAdminListQuery(section, 'admin', { sort, order, per_page: '100' });
        const listed = (
          await get(`/admin/api/manuscript?sort=${sort}&order=${order}&per_page=100`)
        ).json();
        const exported: number[] = [];
        for await (const batch of exportBatches(db, section, 'admin', query, 4)) {
          expect(batch.length).toBeLessThanOrEqual(4);
          exported.push(...batch.map((item) => item.id));
        }
        expect(exported, `${sort} ${order}`).toEqual(
          listed.items.map((item: { id: number }) => item.id),
        );
      }
    }
  });

  it('refuses an unknown type and a bad filter before sending anything', async () => {
    expect((await get('/admin/api/user/export/pdf')).statusCode).toBe(400);
    const bad = await get('/admin/api/user/export/csv?role=emperor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.role).toBeDefined();
  });
});
