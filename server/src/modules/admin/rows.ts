import { Column, eq, getTableColumns, inArray, is, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AdminRole } from '@margins/common';
import type { Executor } from '../../db/index.ts';
import { fieldsFor } from './policy.ts';
import type { FieldDeclaration, SectionDeclaration } from './types.ts';

export type Item = { id: number } & Record<string, unknown>;
type Selection = Record<string, PgColumn | SQL>;

/** The SELECT list of a section's fields (and always `id`). */
export function selectionOf(section: SectionDeclaration, fields: FieldDeclaration[]): Selection {
  const selection: Selection = { id: section.id };
  for (const field of fields) selection[field.name] = field.source as PgColumn | SQL;
  return selection;
}

/** A row as it leaves the server: only declared fields, dates as ISO strings. */
export function presentRow(fields: FieldDeclaration[], row: Record<string, unknown>): Item {
  const item: Item = { id: Number(row.id) };
  for (const field of fields) item[field.name] = presentValue(field, row[field.name]);
  return item;
}

function presentValue(field: FieldDeclaration, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  // A timestamp read through an SQL expression arrives as text.
  if (field.type === 'date' && typeof value === 'string') return new Date(value).toISOString();
  if (field.type === 'number' || field.type === 'reference') return Number(value);
  return value;
}

/** Rows of a section by id, as this role sees them (a Map: ids not found are absent). */
export async function readItems(
  db: Executor,
  section: SectionDeclaration,
  role: AdminRole,
  ids: number[],
): Promise<Map<number, Item>> {
  if (ids.length === 0) return new Map();
  const fields = fieldsFor(section, role);
  const rows = await db
    .select(selectionOf(section, fields))
    .from(section.table)
    .where(inArray(section.id, ids));
  return new Map(rows.map((row) => [Number(row.id), presentRow(fields, row)]));
}

/** Every field of a row (for the audit log's before and after: what admins may see). */
export async function readFullItem(
  db: Executor,
  section: SectionDeclaration,
  id: number,
): Promise<Item | null> {
  return (await readItems(db, section, 'admin', [id])).get(id) ?? null;
}

/** The table property key of a field's column (drizzle writes by property key). */
function columnKey(section: SectionDeclaration, field: FieldDeclaration): string | null {
  if (!is(field.source, Column)) return null;
  for (const [key, column] of Object.entries(getTableColumns(section.table))) {
    if (column === field.source) return key;
  }
  return null;
}

/** Validated input (field name → value) as column values of the section's table. */
export function columnValues(
  section: SectionDeclaration,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const field = section.fields.find((candidate) => candidate.name === name);
    const key = field ? columnKey(section, field) : null;
    if (key && value !== undefined) values[key] = value;
  }
  return values;
}

/** True when the table has an `updated_at` column kept by hand (set it on every update). */
function touchesUpdatedAt(section: SectionDeclaration): boolean {
  return 'updatedAt' in getTableColumns(section.table);
}

export async function insertRow(
  db: Executor,
  section: SectionDeclaration,
  values: Record<string, unknown>,
): Promise<number> {
  const [row] = await db
    .insert(section.table)
    .values(values as never)
    .returning({ id: section.id });
  return Number(row!.id);
}

export async function updateRow(
  db: Executor,
  section: SectionDeclaration,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  const set = touchesUpdatedAt(section) ? { ...values, updatedAt: sql`now()` } : values;
  if (Object.keys(set).length === 0) return;
  await db
    .update(section.table)
    .set(set as never)
    .where(eq(section.id, id));
}

export async function deleteRow(db: Executor, section: SectionDeclaration, id: number) {
  await db.delete(section.table).where(eq(section.id, id));
}
