import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

// Large files go to and from the database without a conversion in JavaScript: they are stored as
// a binary parameter (PGlite and node-postgres copy the bytes as they are; see db/index.ts) and
// read as base64 text, encoded by PostgreSQL and decoded natively by Buffer. PGlite's own bytea
// conversion walks the bytes one by one in JavaScript: about 100 ms of blocked event loop per
// megabyte, each way.

/** A bytea value for an insert: the bytes themselves, sent as a binary parameter. */
export function byteaValue(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Selects a bytea column as base64 text; read it with fromBase64(). */
export function byteaAsBase64(column: AnyColumn): SQL<string> {
  return sql<string>`encode(${column}, 'base64')`;
}

export const fromBase64 = (base64: string): Buffer => Buffer.from(base64, 'base64');
