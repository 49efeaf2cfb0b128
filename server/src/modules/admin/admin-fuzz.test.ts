import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { allSections } from './registry.ts';
import { paymentSectionFactories } from './payments-test-helpers.ts';
import { sectionFactories, staffClients, type StaffClients } from './test-helpers.ts';

/**
 * Every view of every section, as an admin (who passes every gate), with hostile input: wrong
 * types, huge and control-character strings, prototype keys, nested values. Each answer is a
 * 4xx with the one error shape or a success, never a 5xx.
 */

const BAD_VALUES: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  99_999_999_999,
  2 ** 31,
  2 ** 53,
  '1e3',
  '',
  'x'.repeat(100_000),
  'a\u0000b',
  '\ud800',
  '😀'.repeat(50),
  [],
  [1, 2],
  {},
  { nested: { deeper: 1 } },
  '2020-13-45',
  "'; drop table users; --",
];
const BAD_QUERY = [
  '%00',
  'x'.repeat(300),
  '-1',
  '1e400',
  '1e3',
  '2147483648',
  '9007199254740992',
  '%E2%80%AE',
  '__proto__',
  '[]',
];

let test: TestApp;
let people: StaffClients;
beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
});
afterAll(() => test.close());

function expectNoServerError(response: { statusCode: number; body: string }, what: string) {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  if (response.statusCode >= 400) {
    const body = JSON.parse(response.body) as { error?: unknown };
    expect(typeof body.error, what).toBe('string');
  }
}

it('answers hostile input on every view of every section without a server error', async () => {
  const client = people.admin.client;
  const make = { ...sectionFactories(test.ctx.db), ...paymentSectionFactories(test.ctx.db) };
  for (const section of allSections()) {
    const base = `/admin/api/${section.name}`;
    const id = await make[section.name]!();
    const names = [...section.fields.map((field) => field.name), '__proto__', 'constructor', 'id'];
    for (const value of BAD_QUERY) {
      for (const name of ['q', 'sort', 'page', 'per_page', ...section.fields.map((f) => f.name)]) {
        const url = `${base}?${name}=${value}`;
        expectNoServerError(await client.get(url), url);
      }
      expectNoServerError(await client.get(`${base}/lookup?field=${value}&q=${value}`), 'lookup');
      expectNoServerError(await client.get(`${base}/export/csv?q=${value}`), 'export');
      expectNoServerError(await client.get(`${base}/${value}`), `details ${value}`);
      for (const view of section.views ?? []) {
        const url = `${base}/views/${view.name}?status=${value}&page=${value}&q=${value}`;
        expectNoServerError(await client.get(url), url);
      }
    }
    // The create and update schemas check every key in one pass, so one body with every field
    // set to the bad value puts each field to it (one request, not one per field). The one-field
    // update takes one name a request: every inline name, and the names outside the allow-list
    // stand for the rest (they all take the same refusal).
    const inline = section.fields.filter((field) => field.inline).map((field) => field.name);
    const outside = section.fields.find((field) => !field.inline)?.name;
    const fieldNames = [...inline, ...(outside ? [outside] : []), '__proto__', 'constructor', 'id'];
    for (const value of BAD_VALUES) {
      const body = JSON.parse(
        `{${names.map((name) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(',')}}`,
      ) as object;
      const what = `${section.name} =${JSON.stringify(value)?.slice(0, 40)}`;
      expectNoServerError(await client.post(base, body), `create ${what}`);
      expectNoServerError(await client.put(`${base}/${id}`, body), `update ${what}`);
      for (const name of fieldNames) {
        expectNoServerError(
          await client.post(`${base}/${id}/field`, { name, value }),
          `field ${name} ${what}`,
        );
      }
      expectNoServerError(
        await client.post(`${base}/bulk`, { action: value, ids: [id], input: { reason: value } }),
        'bulk',
      );
      expectNoServerError(
        await client.post(`${base}/bulk`, { action: 'delete', ids: value }),
        'bulk ids',
      );
    }
    expectNoServerError(await client.post(base, [1, 2]), 'array body');
    expectNoServerError(
      await client.request({
        method: 'POST',
        url: base,
        payload: '{bad json',
        headers: { 'content-type': 'application/json' },
      }),
      'bad json',
    );
  }
}, 600_000);
