import { PassThrough, Readable } from 'node:stream';
import { once } from 'node:events';
import { and, Column, gt, is, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ADMIN_EXPORT_BATCH, type AdminExportType, type AdminRole } from '@margins/common';
import type { Executor } from '../../db/index.ts';
import { listOrderBy, listWhere } from '../../lib/list-query.ts';
import { sectionList, type AdminListQuery } from './list.ts';
import { presentRow, selectionOf, type Item } from './rows.ts';
import type { FieldDeclaration, SectionDeclaration } from './types.ts';

/** The PostgreSQL type a sort key is compared as (it travels between batches as text). */
const KEY_TYPES: Record<FieldDeclaration['type'], string> = {
  date: 'timestamptz',
  number: 'numeric',
  reference: 'integer',
  boolean: 'boolean',
  text: 'text',
  textarea: 'text',
  enum: 'text',
  json: 'text',
};

interface Cursor {
  key: string | null;
  id: number;
}

/**
 * The rows after `cursor` in the list's order (sort, then id, both in one direction; PostgreSQL
 * puts nulls last ascending and first descending). The key is compared in its own type, cast
 * from the exact text PostgreSQL gave, so no precision is lost (timestamps keep microseconds).
 */
function after(
  cursor: Cursor,
  sort: PgColumn | SQL,
  type: string,
  id: PgColumn,
  ascending: boolean,
) {
  const key = cursor.key === null ? null : sql`cast(${cursor.key} as ${sql.raw(type)})`;
  // Written as a range on the sort key (>= / <=) and a tie-break, so an index on it is used.
  const nullable = !(is(sort, Column) && sort.notNull);
  if (ascending) {
    if (key === null) return and(isNull(sort), gt(id, cursor.id));
    const rest = and(sql`${sort} >= ${key}`, or(sql`${sort} > ${key}`, gt(id, cursor.id)));
    return nullable ? or(rest, isNull(sort)) : rest;
  }
  if (key === null) return or(isNotNull(sort), and(isNull(sort), lt(id, cursor.id)));
  return and(sql`${sort} <= ${key}`, or(sql`${sort} < ${key}`, lt(id, cursor.id)));
}

/**
 * The rows of a list (its search, filters and order; no paging) in batches read by keyset, so
 * an export of any size holds one batch at a time.
 */
export async function* exportBatches(
  db: Executor,
  section: SectionDeclaration,
  role: AdminRole,
  query: AdminListQuery,
  batchSize = ADMIN_EXPORT_BATCH,
): AsyncGenerator<Item[]> {
  const { columns, fields } = sectionList(section, role);
  const where = listWhere(query, columns);
  const orderBy = listOrderBy(query, columns);
  const sort = (columns.sort as Record<string, PgColumn | SQL>)[query.sort]!;
  const sortField = fields.find((field) => field.name === query.sort);
  const type = sortField ? KEY_TYPES[sortField.type] : 'integer';
  const selection = {
    ...selectionOf(section, fields),
    sortKey: sql<string | null>`(${sort})::text`,
  };
  let cursor: Cursor | null = null;
  for (;;) {
    const next: SQL | undefined = cursor
      ? after(cursor, sort, type, section.id, query.order === 'asc')
      : undefined;
    const rows: Array<Record<string, unknown> & { sortKey: string | null }> = await db
      .select(selection)
      .from(section.table)
      .where(and(section.scope, where, next))
      .orderBy(...orderBy)
      .limit(batchSize);
    if (rows.length) yield rows.map((row) => presentRow(fields, row));
    if (rows.length < batchSize) return;
    const last: { sortKey: string | null; id?: unknown } = rows.at(-1)!;
    cursor = { key: last.sortKey, id: Number(last.id) };
  }
}

/** The fields an export writes, for this role. */
function exportFields(section: SectionDeclaration, role: AdminRole): FieldDeclaration[] {
  return sectionList(section, role).fields.filter((field) => field.exported !== false);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (= + - @ at the
 * start) is prefixed with an apostrophe: an export must not execute what users typed.
 */
function csvCell(value: unknown): string {
  let text = cellText(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* csvChunks(fields: FieldDeclaration[], batches: AsyncIterable<Item[]>) {
  const names = ['id', ...fields.map((field) => field.name)];
  yield `${names.map(csvCell).join(',')}\r\n`;
  for await (const batch of batches) {
    yield batch.map((item) => `${names.map((name) => csvCell(item[name])).join(',')}\r\n`).join('');
  }
}

async function* jsonChunks(fields: FieldDeclaration[], batches: AsyncIterable<Item[]>) {
  const names = ['id', ...fields.map((field) => field.name)];
  let first = true;
  yield '[';
  for await (const batch of batches) {
    const text = batch
      .map((item) =>
        JSON.stringify(Object.fromEntries(names.map((name) => [name, item[name] ?? null]))),
      )
      .join(',\n');
    yield (first ? '\n' : ',\n') + text;
    first = false;
  }
  yield '\n]\n';
}

/** Excel's limit on the text of one cell. */
const XLSX_CELL_MAX = 32_767;

function xlsxValue(field: FieldDeclaration | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field?.type === 'date' && typeof value === 'string') return new Date(value);
  if (typeof value === 'object') return JSON.stringify(value).slice(0, XLSX_CELL_MAX);
  if (typeof value === 'string') return value.slice(0, XLSX_CELL_MAX);
  return value;
}

/** Streams the workbook through exceljs's WorkbookWriter, row by row, waiting for the reader. */
function xlsxStream(
  section: SectionDeclaration,
  fields: FieldDeclaration[],
  batches: AsyncIterable<Item[]>,
): Readable {
  const output = new PassThrough();
  (async () => {
    // Loaded on the first XLSX export: exceljs takes ~0.5 s to load, which every start paid.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: false,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(section.label);
    sheet.columns = [
      { header: 'id', key: 'id' },
      ...fields.map((field) => ({ header: field.name, key: field.name })),
    ];
    for await (const batch of batches) {
      for (const item of batch) {
        const row: Record<string, unknown> = { id: item.id };
        for (const field of fields) row[field.name] = xlsxValue(field, item[field.name]);
        sheet.addRow(row).commit();
      }
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

export const EXPORT_CONTENT_TYPES: Record<AdminExportType, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The export as a stream of bytes, read from the database batch by batch as it is sent. */
export function exportStream(
  db: Executor,
  section: SectionDeclaration,
  role: AdminRole,
  query: AdminListQuery,
  type: AdminExportType,
): Readable {
  const fields = exportFields(section, role);
  const batches = exportBatches(db, section, role, query);
  if (type === 'csv') return Readable.from(csvChunks(fields, batches));
  if (type === 'json') return Readable.from(jsonChunks(fields, batches));
  return xlsxStream(section, fields, batches);
}

/** `S-YYYY-MM-DD.type`. */
export function exportFileName(
  section: SectionDeclaration,
  type: AdminExportType,
  now = new Date(),
) {
  return `${section.name}-${now.toISOString().slice(0, 10)}.${type}`;
}
