import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAnswer,
  buildInvite,
  buildSurvey,
  personFor,
} from '../modules/invites/test-helpers.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { buildGenres } from './factories.ts';
import { createTestApp, TestClient, type TestApp } from './harness.ts';

/**
 * Every route of /api/openapi.json, as a stranger and as a logged-in author, with generated bad
 * path parameters, query values and bodies (wrong types, huge, NUL and other control
 * characters, unicode, prototype keys, malformed JSON and multipart). Nothing may answer 5xx
 * or show a stack trace, and a refused request (4xx) may write nothing. A new route is fuzzed
 * as soon as it is in the OpenAPI document. Deterministic: one seeded generator.
 */

/** A JSON schema node of the OpenAPI document, as far as the fuzzer reads it. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  minItems?: number;
  format?: string;
}

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema?: JsonSchema }>;
  bodyTypes: string[];
  bodyFields: string[];
  /** The JSON body's schema, when it takes JSON. */
  jsonBody: JsonSchema | null;
}

interface FuzzRequest {
  method: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  what: string;
}

/** mulberry32: small, seeded, the same sequence on every run. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seededRandom(20_261_124);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const sample = <T>(items: readonly T[], count: number): T[] =>
  [...items].sort(() => random() - 0.5).slice(0, count);

/** A random string of letters from several scripts, emoji and combining marks. */
function unicodeString(length: number): string {
  const pools = [
    'abcXYZ',
    'éüßœ',
    'жщыЯ',
    'αβγΩ',
    '中文字',
    'עברית',
    'عربي',
    '😀🎉👩‍💻',
    '\u0301\u200d\ufeff',
  ];
  let text = '';
  for (let index = 0; index < length; index++) text += pick([...pick(pools)]);
  return text;
}

/** Bad values for a path parameter (already URL-encoded). */
const BAD_PATH_VALUES = [
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  'a%00b',
  '%0D%0A',
  '%FF%FE',
  '%F0%9F%98%80',
  '__proto__',
  'constructor',
  'x'.repeat(3000),
  encodeURIComponent("$`$'$&</script>"),
];

/** Bad values for a query parameter (already URL-encoded); arrays through repetition. */
const BAD_QUERY_VALUES = (name: string) => [
  `${name}=a%00b`,
  `${name}=%0A`,
  `${name}=%FF`,
  `${name}=${'y'.repeat(5000)}`,
  `${name}=1&${name}=2`,
  `${name}[]=1`,
  `${name}[__proto__][x]=1`,
  `${name}=${encodeURIComponent(unicodeString(20))}`,
  `${name}=-1e309`,
];

/** Bad values for one JSON body field. */
const badFieldValues = (): unknown[] => [
  12345,
  -1,
  Number.MAX_SAFE_INTEGER * 10,
  true,
  null,
  [],
  ['a', 1, null],
  {},
  'a\u0000b',
  'line\u0007bell\u001b',
  'half \ud800 surrogate',
  unicodeString(40),
  'z'.repeat(100_000),
  "$`$'$&</script><!--",
  '   ',
];

/** Whole bodies that are not what any route takes (as raw JSON text). */
const BAD_JSON_BODIES = [
  '{"a":',
  '{"a":1}}',
  'null',
  '[]',
  '"text"',
  '12',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `{"toString":"x","valueOf":1,"hasOwnProperty":[]}`,
  `{"${'k'.repeat(10_000)}":1}`,
  '{"a":"\\u0000"}',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
];

/** Malformed multipart bodies: [content type, body]. */
function badMultipartBodies(): Array<[string, string, string]> {
  const boundary = 'fuzzboundary';
  const type = `multipart/form-data; boundary=${boundary}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const end = `--${boundary}--\r\n`;
  return [
    ['no boundary', 'multipart/form-data', field('title', 'x') + end],
    ['truncated', type, field('title', 'x').slice(0, 30)],
    ['__proto__ field', type, field('__proto__', 'x') + end],
    ['constructor field', type, field('constructor', 'x') + field('toString', 'y') + end],
    ['repeated field', type, field('title', 'a') + field('title', 'b') + end],
    ['NUL in a value', type, field('title', 'a\u0000b') + end],
    ['no headers', type, `--${boundary}\r\n\r\nbody\r\n${end}`],
    [
      'bad file name',
      type,
      `--${boundary}\r\nContent-Disposition: form-data; name="docxfile"; filename*=UTF-8''a%00%0D%0A.md\r\n\r\n# x\r\n${end}`,
    ],
    ['garbage', type, '\u0000\u0001garbage'],
  ];
}

const STACK_TRACE =
  /\n\s+at .+:\d+:\d+|node_modules\/|\/src\/.+\.ts|FST_ERR_|TypeError|ReferenceError/;

let test: TestApp;
let operations: Operation[];
let countTables: () => Promise<string>;
const good: Record<string, string> = {};

beforeAll(async () => {
  test = await createTestApp();
  const { db } = test.ctx;
  const author = await personFor(test);
  const reader = await personFor(test);
  const manuscript = await buildManuscript(db, author.user, { visibility: 'restricted' });
  const survey = await buildSurvey(db, manuscript.id);
  const answer = await buildAnswer(db, survey.id, reader.user.id);
  const invite = await buildInvite(db, {
    manuscriptId: manuscript.id,
    invitedUserId: reader.user.id,
  });
  const [genre] = await buildGenres(db);
  Object.assign(good, {
    manuscript_id: String(manuscript.id),
    user_id: String(author.user.id),
    genre_id: String(genre!.id),
    invite_id: String(invite.id),
    request_id: String(invite.id),
    survey_answer_id: String(answer.id),
    comment_id: '1',
    survey_type: 'questionaire',
    decision: 'approve',
    dir: 'up',
    code: invite.code,
    media_id: 'missing',
    result_id: randomUUID(),
    selection_id: randomUUID(),
    section: 'manuscript',
  });
  clients = { anonymous: new TestClient(test.app, '10.0.0.1'), author: author.client };
  // The admin API answers anyone else its not-found page before reading the request.
  admin = (await personFor(test, { role: 'admin' })).client;

  const document = (await test.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Operation['parameters'];
          requestBody?: { content: Record<string, { schema?: JsonSchema }> };
        }
      >
    >;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const content = operation.requestBody?.content ?? {};
      return {
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        bodyTypes: Object.keys(content),
        bodyFields: Object.keys(Object.values(content)[0]?.schema?.properties ?? {}),
        jsonBody: content['application/json']?.schema ?? null,
      };
    }),
  );

  const rowsOf = async <T>(query: ReturnType<typeof sql.raw>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const names = (
    await rowsOf<{ name: string }>(
      sql.raw(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
      ),
    )
  )
    .map((row) => row.name)
    // Bookkeeping of the limiters: a refused request may count against its sender.
    .filter((name) => !['rate_limits', 'login_throttles'].includes(name));
  const everyCount = sql.raw(
    `select ${names.map((name) => `(select count(*) from "${name}")::int as "${name}"`).join(', ')}`,
  );
  countTables = async () => JSON.stringify(await rowsOf(everyCount));
});
afterAll(() => test.close());

let clients: Record<string, TestClient>;
let admin: TestClient;

/** The path with its parameters filled (one of them, optionally, with a bad value). */
function fill(path: string, bad?: { name: string; value: string }): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    bad?.name === name ? bad.value : (good[name] ?? '1'),
  );
}

/** The bad requests for one operation. */
function requestsFor(operation: Operation): FuzzRequest[] {
  const { method, path } = operation;
  const requests: FuzzRequest[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      for (const value of BAD_PATH_VALUES) {
        requests.push({
          method,
          url: fill(path, { name: parameter.name, value }),
          what: `path ${parameter.name}=${value.slice(0, 40)}`,
        });
      }
    }
    if (parameter.in === 'query') {
      for (const query of BAD_QUERY_VALUES(parameter.name)) {
        requests.push({
          method,
          url: `${fill(path)}?${query}`,
          what: `query ${query.slice(0, 40)}`,
        });
      }
    }
  }
  if (method === 'GET') return requests;
  // Malformed JSON is refused by the parser on every route, before any handler runs.
  for (const payload of BAD_JSON_BODIES.slice(0, operation.bodyTypes.length > 0 ? undefined : 2)) {
    requests.push({
      method,
      url: fill(path),
      payload,
      contentType: 'application/json',
      what: `body ${payload.slice(0, 40)}`,
    });
  }
  if (operation.bodyFields.length > 0 && operation.bodyTypes.includes('application/json')) {
    for (const field of operation.bodyFields) {
      for (const value of sample(badFieldValues(), 5)) {
        requests.push({
          method,
          url: fill(path),
          payload: JSON.stringify({ [field]: value }),
          contentType: 'application/json',
          what: `field ${field}=${JSON.stringify(value)?.slice(0, 40)}`,
        });
      }
    }
  }
  if (operation.bodyTypes.includes('multipart/form-data')) {
    for (const [what, contentType, payload] of badMultipartBodies()) {
      requests.push({ method, url: fill(path), payload, contentType, what: `multipart ${what}` });
    }
  }
  return requests;
}

/** Sends one fuzz request as `client`. */
function send(client: TestClient, request: FuzzRequest, accept: string) {
  return client.request({
    method: request.method as 'GET',
    url: request.url,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
    headers: {
      ...(request.contentType ? { 'content-type': request.contentType } : {}),
      accept,
    },
  });
}

function problemOf(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`;
  if (STACK_TRACE.test(response.body)) return `stack trace: ${response.body.slice(0, 300)}`;
  return null;
}

/**
 * Values no integer id may take through to a query: past PostgreSQL's integer (2^31), below
 * any id (-1), past what a double holds exactly (2^53), and a number spelt otherwise ("1e3").
 */
const ID_BOUND_VALUES: unknown[] = [2 ** 31, -1, 2 ** 53, '1e3'];
/** A parameter or field that names a row: `id`, `…_id`, `…Id`, `…_ids`, `ids`. */
const ID_NAME = /^(id|ids|.+_id|.+_ids|.+Id|.+Ids)$/;

/** Does this schema (or one of its union members) take an integer? */
const takesInteger = (schema: JsonSchema | undefined): boolean =>
  !!schema &&
  (schema.type === 'integer' ||
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(takesInteger));

/** The paths (property names, `[]` for an item) to every integer a body schema takes. */
function integerPaths(schema: JsonSchema, path: string[] = []): string[][] {
  if (takesInteger(schema)) return [path];
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) =>
      integerPaths(property, [...path, name]),
    ),
    ...(schema.items ? integerPaths(schema.items, [...path, '[]']) : []),
    ...members.flatMap((member) => integerPaths(member, path)),
  ];
}

/** A plausible value of a schema: its required properties filled, so a check past them runs. */
function exampleOf(schema: JsonSchema): unknown {
  const member = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (member) return exampleOf(member);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, exampleOf(schema.properties?.[name] ?? {})]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items ?? {}));
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.test';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return (schema.minimum ?? 0) + (schema.exclusiveMinimum ? 1 : 0) || 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** A copy of `body` with the value at `path` set (an item path sets a one-item array). */
function withValueAt(body: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (head === '[]') return [withValueAt(undefined, rest, value)];
  const object = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  return { ...object, [head]: withValueAt((object as Record<string, unknown>)[head], rest, value) };
}

/** The id-bound requests of one operation: each integer parameter and body field in turn. */
function idBoundRequestsFor(operation: Operation): Array<FuzzRequest & { id: boolean }> {
  const { method, path } = operation;
  const requests: Array<FuzzRequest & { id: boolean }> = [];
  for (const parameter of operation.parameters) {
    if (!takesInteger(parameter.schema)) continue;
    for (const value of ID_BOUND_VALUES) {
      const encoded = encodeURIComponent(String(value));
      const url =
        parameter.in === 'path'
          ? fill(path, { name: parameter.name, value: encoded })
          : `${fill(path)}?${parameter.name}=${encoded}`;
      const what = `${parameter.in} ${parameter.name}=${String(value)}`;
      requests.push({ method, url, what, id: ID_NAME.test(parameter.name) });
    }
  }
  if (!operation.jsonBody) return requests;
  const base = exampleOf(operation.jsonBody);
  for (const fieldPath of integerPaths(operation.jsonBody)) {
    const name = fieldPath.filter((part) => part !== '[]').at(-1) ?? '';
    for (const value of ID_BOUND_VALUES) {
      requests.push({
        method,
        url: fill(path),
        payload: JSON.stringify(withValueAt(base, fieldPath, value)),
        contentType: 'application/json',
        what: `body ${fieldPath.join('.')}=${JSON.stringify(value)}`,
        id: ID_NAME.test(name),
      });
    }
  }
  return requests;
}

describe('route fuzz', () => {
  it(
    'every integer parameter and body field of the OpenAPI document, given a value past its bound',
    { timeout: 240_000 },
    async () => {
      const problems: string[] = [];
      const checked = new Set<string>();
      let sent = 0;
      let counts = await countTables();
      for (const operation of operations) {
        for (const request of idBoundRequestsFor(operation)) {
          checked.add(`${operation.method} ${operation.path} ${request.what.split('=')[0]}`);
          for (const [who, client] of Object.entries({ ...clients, admin })) {
            const response = await send(client, request, 'application/json');
            sent += 1;
            const label = `${who} ${operation.method} ${operation.path} ${request.what}`;
            const problem = problemOf(response);
            if (problem) problems.push(`${label}: ${problem}`);
            // An id out of bounds names nothing: refused (400), or not found, never served.
            if (request.id && response.statusCode < 400) {
              problems.push(`${label}: ${response.statusCode} ${response.body.slice(0, 120)}`);
            }
            const after = await countTables();
            if (response.statusCode >= 400 && after !== counts) {
              problems.push(`${label}: ${response.statusCode} but wrote rows`);
            }
            counts = after;
          }
        }
      }
      console.info(`route fuzz (id bounds): ${sent} requests over ${checked.size} integers`);
      expect(problems).toEqual([]);
      // Discover's genre filter and the admin API's ids are among them.
      expect([...checked]).toEqual(
        expect.arrayContaining([
          'POST /discover/ body genre_ids.[]',
          'GET /admin/api/{section}/{id} path id',
          'POST /comments/manuscript/{manuscript_id} body highlight.startOffset',
        ]),
      );
    },
  );

  it(
    'no bad request gets a 5xx or a stack trace, and a refused one writes nothing',
    { timeout: 240_000 },
    async () => {
      expect(operations.length).toBeGreaterThan(40);
      const problems: string[] = [];
      let sent = 0;
      let counts = await countTables();
      for (const operation of operations) {
        const requests = requestsFor(operation);
        for (const [who, client] of Object.entries(clients)) {
          for (const request of requests) {
            const accept = random() < 0.5 ? 'application/json' : 'text/html';
            const response = await send(client, request, accept);
            sent += 1;
            const label = `${who} ${operation.method} ${operation.path} ${request.what}`;
            const problem = problemOf(response);
            if (problem) problems.push(`${label}: ${problem}`);
            // Row counts after every request: a refused one must leave them as they were.
            const after = await countTables();
            if (response.statusCode >= 400 && after !== counts) {
              problems.push(`${label}: ${response.statusCode} but wrote rows`);
            }
            counts = after;
          }
        }
      }
      console.info(`route fuzz: ${sent} requests over ${operations.length} operations`);
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(1000);
    },
  );
});
