import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  buildCoupon,
  buildGift,
  buildProduct,
  buildSubscription,
  buildWaitingListEntry,
} from './payments-test-helpers.ts';
import { staffClients, type StaffClients } from './test-helpers.ts';

let test: TestApp;
let people: StaffClients;

beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
});
afterAll(() => test.close());

const admin = () => people.admin.client;
const errorsOf = (response: { json: () => { errors?: Record<string, string[]> } }) =>
  response.json().errors ?? {};

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

/** The CSV export of a section as objects keyed by its header row. */
async function exportedCsv(path: string): Promise<Array<Record<string, string>>> {
  const response = await admin().get(path);
  expect(response.statusCode, response.body).toBe(200);
  const [header, ...rows] = parseCsv(response.body);
  return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!])));
}

describe('coupon', () => {
  const past = new Date(Date.now() - 86_400_000).toISOString();
  const future = new Date(Date.now() + 30 * 86_400_000).toISOString();

  it('answers field errors for a percentage over 100, a negative amount, a past expiry', async () => {
    const percent = await admin().post('/admin/api/coupon', { code: 'BIG', percent_off: 150 });
    expect(percent.statusCode).toBe(400);
    expect(Object.keys(errorsOf(percent))).toEqual(['percent_off']);
    const amount = await admin().post('/admin/api/coupon', { code: 'NEG', amount_off: -500 });
    expect(Object.keys(errorsOf(amount))).toEqual(['amount_off']);
    const expired = await admin().post('/admin/api/coupon', {
      code: 'OLD',
      percent_off: 10,
      expires_at: past,
    });
    expect(errorsOf(expired)).toEqual({ expires_at: ['Choose a date in the future.'] });
    const both = await admin().post('/admin/api/coupon', {
      code: 'BOTH',
      percent_off: 10,
      amount_off: 100,
    });
    expect(Object.keys(errorsOf(both)).sort()).toEqual(['amount_off', 'percent_off']);
    const neither = await admin().post('/admin/api/coupon', { code: 'NONE' });
    expect(Object.keys(errorsOf(neither)).sort()).toEqual(['amount_off', 'percent_off']);
    // Checkout counts redemptions: no form sets them.
    const counted = await admin().post('/admin/api/coupon', {
      code: 'COUNTED',
      percent_off: 10,
      times_redeemed: 3,
    });
    expect(errorsOf(counted)).toEqual({ times_redeemed: [ADMIN_MESSAGES.notWritableField] });
  });

  it('creates a coupon stored upper-case, and updates it against the row as it will be', async () => {
    const created = await admin().post('/admin/api/coupon', {
      code: ' spring-sale ',
      percent_off: 25,
      expires_at: future,
      max_redemptions: 50,
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json().item;
    expect(item).toMatchObject({
      code: 'SPRING-SALE',
      percent_off: 25,
      amount_off: null,
      max_redemptions: 50,
      times_redeemed: 0,
      active: true,
    });
    const taken = await admin().post('/admin/api/coupon', { code: 'Spring-Sale', amount_off: 5 });
    expect(errorsOf(taken)).toEqual({ code: [ADMIN_MESSAGES.alreadyTaken] });
    const over = await admin().put(`/admin/api/coupon/${item.id}`, { percent_off: 101 });
    expect(Object.keys(errorsOf(over))).toEqual(['percent_off']);
    const both = await admin().put(`/admin/api/coupon/${item.id}`, { amount_off: 500 });
    expect(Object.keys(errorsOf(both)).sort()).toEqual(['amount_off', 'percent_off']);
    const past = await admin().put(`/admin/api/coupon/${item.id}`, { expires_at: '2001-01-01' });
    expect(Object.keys(errorsOf(past))).toEqual(['expires_at']);
    const switched = await admin().put(`/admin/api/coupon/${item.id}`, {
      percent_off: null,
      amount_off: 500,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().item).toMatchObject({ percent_off: null, amount_off: 500 });
    const off = await admin().post(`/admin/api/coupon/${item.id}/field`, {
      name: 'active',
      value: false,
    });
    expect(off.json().item.active).toBe(false);
    const code = await admin().post(`/admin/api/coupon/${item.id}/field`, {
      name: 'code',
      value: 'OTHER',
    });
    expect(code.statusCode).toBe(400);
  });

  it('searches and exports as CSV', async () => {
    const coupon = await buildCoupon(test.ctx.db, 'FINDME42');
    await buildCoupon(test.ctx.db);
    await test.ctx.db
      .update(schema.coupons)
      .set({ timesRedeemed: 5 })
      .where(eq(schema.coupons.id, coupon.id));
    const limit = await admin().put(`/admin/api/coupon/${coupon.id}`, { max_redemptions: 4 });
    expect(Object.keys(errorsOf(limit))).toEqual(['max_redemptions']);
    const raised = await admin().put(`/admin/api/coupon/${coupon.id}`, { max_redemptions: 5 });
    expect(raised.statusCode, raised.body).toBe(200);
    const found = (await admin().get('/admin/api/coupon?q=findme')).json();
    expect(found.items.map((item: { id: number }) => item.id)).toEqual([coupon.id]);
    const rows = await exportedCsv('/admin/api/coupon/export/csv?q=findme');
    expect(rows).toEqual([
      expect.objectContaining({
        code: 'FINDME42',
        percent_off: '10',
        times_redeemed: '5',
        max_redemptions: '5',
      }),
    ]);
  });
});

describe('product', () => {
  it('answers field errors on create and update', async () => {
    const bad = await admin().post('/admin/api/product', {
      slug: 'Not A Slug',
      name: '  ',
      word_limit: -1,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorsOf(bad)).sort()).toEqual(['name', 'slug', 'word_limit']);
    const product = await buildProduct(test.ctx.db);
    const update = await admin().put(`/admin/api/product/${product.id}`, { word_limit: 1.5 });
    expect(Object.keys(errorsOf(update))).toEqual(['word_limit']);
    // The slug names the tier in code and seeds: set once.
    const slug = await admin().put(`/admin/api/product/${product.id}`, { slug: 'other' });
    expect(errorsOf(slug)).toEqual({ slug: [ADMIN_MESSAGES.notWritableField] });
    const taken = await admin().post('/admin/api/product', {
      slug: product.slug,
      name: 'Copy',
      word_limit: 10,
    });
    expect(errorsOf(taken)).toEqual({ slug: [ADMIN_MESSAGES.alreadyTaken] });
  });

  it('creates and edits a product, shows its prices read-only, and is never deleted', async () => {
    const created = await admin().post('/admin/api/product', {
      slug: 'patron',
      name: 'Patron',
      word_limit: 900000,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().item).toMatchObject({ name: 'Patron', active: true, prices: '' });
    const id = created.json().item.id;
    const edited = await admin().put(`/admin/api/product/${id}`, { description: 'For patrons.' });
    expect(edited.json().item.description).toBe('For patrons.');
    const product = await buildProduct(test.ctx.db, { name: 'Searchable Tier' });
    const details = (await admin().get(`/admin/api/product/${product.id}`)).json().item;
    expect(details.prices).toBe('month 900 usd, year 9000 usd');
    expect((await admin().delete(`/admin/api/product/${product.id}`)).statusCode).toBe(403);
    const found = (await admin().get('/admin/api/product?q=searchable')).json();
    expect(found.items.map((item: { id: number }) => item.id)).toEqual([product.id]);
    const rows = await exportedCsv('/admin/api/product/export/csv?q=searchable');
    expect(rows).toEqual([
      expect.objectContaining({ name: 'Searchable Tier', prices: 'month 900 usd, year 9000 usd' }),
    ]);
  });
});

describe('gift', () => {
  it('lists, searches and exports gifts without their secret code; takes no writes', async () => {
    const gift = await buildGift(test.ctx.db, 'lucky.friend@example.test');
    await buildGift(test.ctx.db);
    const found = (await admin().get('/admin/api/gift?q=lucky')).json();
    expect(found.items).toEqual([
      expect.objectContaining({
        id: gift.id,
        recipient_email: 'lucky.friend@example.test',
        state: 'unredeemed',
        interval: 'year',
      }),
    ]);
    const details = (await admin().get(`/admin/api/gift/${gift.id}`)).json().item;
    const rows = await exportedCsv('/admin/api/gift/export/csv?q=lucky');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.recipient_email).toBe('lucky.friend@example.test');
    for (const text of [JSON.stringify(found), JSON.stringify(details), JSON.stringify(rows)]) {
      expect(text).not.toContain(gift.code);
    }
    const json = (await admin().get('/admin/api/gift/export/json')).body;
    expect(json).not.toContain(gift.code);
    expect(
      (await admin().post('/admin/api/gift', { recipient_email: 'a@b.test' })).statusCode,
    ).toBe(403);
    expect((await admin().delete(`/admin/api/gift/${gift.id}`)).statusCode).toBe(403);
  });
});

describe('waiting list', () => {
  it('searches and exports the addresses as CSV; admins only', async () => {
    const entry = await buildWaitingListEntry(test.ctx.db, 'early.bird@example.test');
    await buildWaitingListEntry(test.ctx.db);
    const found = (await admin().get('/admin/api/waiting-list?q=early.bird')).json();
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({ id: entry.id, email: 'early.bird@example.test' });
    const rows = await exportedCsv('/admin/api/waiting-list/export/csv?q=early');
    expect(rows.map((row) => row.email)).toEqual(['early.bird@example.test']);
    expect(new Date(rows[0]!.created_at!).getTime()).toBe(entry.createdAt.getTime());
    const moderator = await people.moderator.client.get('/admin/api/waiting-list');
    expect(moderator.statusCode).toBe(403);
  });
});

describe('the dashboard’s subscriptions', () => {
  it('counts the active subscriptions, and the new active ones per day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    await buildSubscription(test.ctx.db);
    await buildSubscription(test.ctx.db);
    await buildSubscription(test.ctx.db, { createdAt: tenDaysAgo });
    await buildSubscription(test.ctx.db, { createdAt: new Date(Date.now() - 90 * 86_400_000) });
    await buildSubscription(test.ctx.db, { status: 'canceled' });
    await buildSubscription(test.ctx.db, { status: 'incomplete' });
    const metrics = (await admin().get('/admin/api/_dashboard')).json().metrics;
    const subscriptions = metrics.find(
      (metric: { name: string }) => metric.name === 'subscriptions',
    );
    expect(subscriptions.total).toBe(4);
    expect(subscriptions.series).toHaveLength(30);
    const count = (date: string) =>
      subscriptions.series.find((point: { date: string }) => point.date === date)?.count;
    expect(count(today)).toBe(2);
    expect(count(tenDaysAgo.toISOString().slice(0, 10))).toBe(1);
    const perDay = subscriptions.series.reduce(
      (sum: number, point: { count: number }) => sum + point.count,
      0,
    );
    expect(perDay).toBe(3);
  });
});
