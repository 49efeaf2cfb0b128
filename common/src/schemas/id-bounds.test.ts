import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INPUT_MESSAGES } from '../messages.ts';
import { databaseId, INT4_MAX } from './fields.ts';

/**
 * Every integer a request schema takes (every body, path, query and socket payload of every
 * schema file: the exports named …Body, …Params, …Query, …Payload, …Request, …Input, …Fields)
 * is bounded to PostgreSQL's integer, the type of every id column and of the offsets we store;
 * an id also refuses −1 and spellings other than digits ("1e3"). Generated: a new schema is
 * checked as soon as it is exported.
 */

const REQUEST_SCHEMA = /(Body|Params|Query|Payload|Request|Input|Fields)$/;
/** A field that names a row: `id`, `…_id`, `…Id`, `…_ids`, `ids`. */
const ID_NAME = /^(id|ids|.+_id|.+_ids|.+Id|.+Ids)$/;

interface Field {
  path: string;
  name: string;
  schema: z.ZodType;
}

/** Every object property reachable in `schema`, through wrappers, pipes, unions and arrays. */
function fieldsOf(schema: z.ZodType, path: string, seen = new Set<z.ZodType>()): Field[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => fieldsOf(def[key] as z.ZodType, path, seen);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([name, value]) => [
        { path: `${path}.${name}`, name, schema: value },
        ...fieldsOf(value, `${path}.${name}`, seen),
      ]);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner('innerType');
    case 'pipe':
      return [...inner('in'), ...inner('out')];
    case 'array':
      return fieldsOf(def.element as z.ZodType, `${path}[]`, seen);
    case 'record':
      return fieldsOf(def.valueType as z.ZodType, `${path}{}`, seen);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => fieldsOf(option, path, seen));
    case 'intersection':
      return [...inner('left'), ...inner('right')];
    default:
      return [];
  }
}

/** The JSON types a field's input may take (its top level, its union members, its items). */
function inputTypes(schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonNode;
  const types = new Set<string>();
  const visit = (node: JsonNode, inArray: boolean) => {
    if (typeof node.type === 'string') types.add(inArray ? `array:${node.type}` : node.type);
    if (node.type === 'array' && node.items) visit(node.items, true);
    for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) visit(member, inArray);
  };
  visit(json, false);
  return {
    integer: types.has('integer') || types.has('array:integer'),
    number: types.has('number') || types.has('array:number'),
    array: types.has('array'),
    string: types.has('string'),
  };
}
interface JsonNode {
  type?: string;
  items?: JsonNode;
  anyOf?: JsonNode[];
  oneOf?: JsonNode[];
}

const folder = fileURLToPath(new URL('.', import.meta.url));
const modules = await Promise.all(
  readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map(async (file) => [file, (await import(`./${file}`)) as Record<string, unknown>] as const),
);

/** Every integer field of every request schema, once per (schema, path). */
const integerFields = modules.flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([name, value]) => REQUEST_SCHEMA.test(name) && value instanceof z.ZodType)
    .flatMap(([name, value]) =>
      fieldsOf(value as z.ZodType, `${file}:${name}`)
        .map((field) => ({ ...field, types: inputTypes(field.schema) }))
        // An id taking any number counts too; an amount as typed (a tip) is bounded elsewhere.
        .filter((field) => field.types.integer || (field.types.number && ID_NAME.test(field.name))),
    ),
);

const TOO_BIG = [2 ** 31, 2 ** 53, 1e300];
const NOT_AN_ID = [-1, 0, 1.5, '1e3', '0x7', '-1', String(2 ** 31), String(2 ** 53)];

describe('integer fields of request schemas', () => {
  it('finds the ids of every area', () => {
    const ids = integerFields.filter((field) => ID_NAME.test(field.name)).map((f) => f.path);
    expect(ids.length).toBeGreaterThan(30);
    for (const expected of [
      'discover.ts:discoverRequest.genre_ids',
      'manuscript.ts:manuscriptIdParams.manuscript_id',
      'admin.ts:adminItemParams.id',
      'comments-socket.ts:highlightPayload.manuscript_id',
    ]) {
      expect(ids).toContain(expected);
    }
  });

  for (const field of integerFields) {
    const isId = ID_NAME.test(field.name);
    const values = isId ? [...TOO_BIG, ...NOT_AN_ID] : TOO_BIG;
    it(`${field.path} refuses ${isId ? 'what is not an id' : 'what PostgreSQL cannot hold'}`, () => {
      const accepted = values
        .flatMap((value) => [
          value,
          ...(field.types.array ? [[value]] : []),
          ...(field.types.string && typeof value === 'number' ? [String(value)] : []),
        ])
        .filter((value) => field.schema.safeParse(value).success);
      expect(accepted).toEqual([]);
    });
  }
});

describe('databaseId', () => {
  it('takes 1 … INT4_MAX as a number or in digits, and nothing else', () => {
    expect(databaseId.parse(INT4_MAX)).toBe(INT4_MAX);
    expect(databaseId.parse(String(INT4_MAX))).toBe(INT4_MAX);
    expect(databaseId.parse('007')).toBe(7);
    for (const value of [...TOO_BIG, ...NOT_AN_ID, '', ' 7', '7 ', '+7', '7.0', null, [7], {}]) {
      const parsed = databaseId.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([INPUT_MESSAGES.badId]);
    }
  });
});
