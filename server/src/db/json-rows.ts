import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';

/**
 * A table's row from its `to_jsonb(row)`, as a select of the table would have given it: each
 * column read from its SQL name through the column's own driver mapping (timestamps to Date,
 * arrays, numbers). For statements that hand back rows of several tables at once (a
 * data-modifying CTE returning what it wrote), where drizzle cannot map them.
 */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>) {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
