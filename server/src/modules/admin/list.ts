import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { INT4_MAX, listQuery, queryBoolean, type AdminRole, type ListQuery } from '@margins/common';
import type { Executor } from '../../db/index.ts';
import { parseListQuery, runList, type ListColumns, type ListPage } from '../../lib/list-query.ts';
import { fieldsFor } from './policy.ts';
import { presentRow, selectionOf, type Item } from './rows.ts';
import type { FieldDeclaration, SectionDeclaration } from './types.ts';

type Filter = { schema: z.ZodType; condition: (value: never) => SQL | undefined };
export type AdminListQuery = ListQuery & Record<string, unknown>;

const int4 = z.coerce
  .number({ error: 'Enter a number.' })
  .int('Enter a whole number.')
  .min(-INT4_MAX - 1, 'This number is too small.')
  .max(INT4_MAX, 'This number is too large.');

/** The filter of a filterable field: its own, or equality with a value of the field's type. */
function filterOf(field: FieldDeclaration): Filter | null {
  if (field.filter) return field.filter;
  const source = field.source;
  const equals = (value: unknown) => eq(source as PgColumn, value);
  switch (field.type) {
    case 'boolean':
      return { schema: queryBoolean, condition: equals };
    case 'number':
    case 'reference':
      return { schema: int4, condition: equals };
    case 'enum':
      return {
        schema: z.enum(field.choices as [string, ...string[]], {
          error: `Choose one of: ${field.choices?.join(', ')}.`,
        }),
        condition: equals,
      };
    case 'date':
      return {
        schema: z.iso.date({ error: 'Enter a date as YYYY-MM-DD.' }),
        condition: (value: string) => sql`(${source} at time zone 'UTC')::date = ${value}::date`,
      };
    case 'json':
      return null;
    default:
      return { schema: z.string().max(200, 'Use at most 200 characters.'), condition: equals };
  }
}

interface SectionList {
  schema: z.ZodType;
  columns: ListColumns<AdminListQuery>;
  fields: FieldDeclaration[];
}
const built = new Map<string, SectionList>();

/** The list query schema and its SQL mapping, for a section as one role sees it (cached). */
export function sectionList(section: SectionDeclaration, role: AdminRole): SectionList {
  const key = `${section.name}:${role}`;
  const cached = built.get(key);
  if (cached) return cached;
  const fields = fieldsFor(section, role);
  const sortable = fields.filter((field) => field.sortable);
  const sort: Record<string, PgColumn | SQL> = { id: section.id };
  for (const field of sortable) sort[field.name] = field.source as PgColumn | SQL;
  const filterSchemas: Record<string, z.ZodType> = {};
  const filters: Record<string, (value: never) => SQL | undefined> = {};
  for (const field of fields.filter((candidate) => candidate.filterable)) {
    const filter = filterOf(field);
    if (!filter) continue;
    filterSchemas[field.name] = filter.schema.optional();
    filters[field.name] = filter.condition;
  }
  const sortNames = Object.keys(sort) as [string, ...string[]];
  const schema = listQuery({
    sort: sortNames,
    defaultSort: section.defaultSort,
    defaultOrder: section.defaultOrder,
    filters: filterSchemas,
  });
  const columns = {
    sort,
    tieBreaker: section.id,
    filters,
    search: fields.filter((field) => field.searchable).map((field) => field.source),
  } as unknown as ListColumns<AdminListQuery>;
  const list = { schema, columns, fields };
  built.set(key, list);
  return list;
}

/** Parses a list (or export) query: a bad or unknown field is a 400 naming it. */
export function parseAdminListQuery(
  section: SectionDeclaration,
  role: AdminRole,
  query: unknown,
): AdminListQuery {
  return parseListQuery(sectionList(section, role).schema, query) as AdminListQuery;
}

/** One page of a section: filtered, searched, sorted and paged in SQL, with the total. */
export async function listItems(
  db: Executor,
  section: SectionDeclaration,
  role: AdminRole,
  query: AdminListQuery,
): Promise<ListPage<Item>> {
  const { columns, fields } = sectionList(section, role);
  const selection = selectionOf(section, fields);
  return runList(query, columns, {
    count: async (where) => {
      const [row] = await db
        .select({ total: count() })
        .from(section.table)
        .where(and(section.scope, where));
      return row?.total ?? 0;
    },
    rows: async ({ where, orderBy, limit, offset }) => {
      const rows = await db
        .select(selection)
        .from(section.table)
        .where(and(section.scope, where))
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => presentRow(fields, row));
    },
  });
}
