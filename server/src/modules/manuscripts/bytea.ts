import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

// Large files go to and from the database as base64 text, encoded and decoded natively (Buffer
// in Node, encode/decode in PostgreSQL). PGlite's own bytea conversion walks the bytes one by
// one in JavaScript: about 100 ms of blocked event loop per megabyte, each way.

/** A bytea value for an insert, sent as base64 text. */
export function byteaValue(bytes: Uint8Array): SQL {
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return sql`decode(${base64}, 'base64')`;
}

/** Selects a bytea column as base64 text; read it with fromBase64(). */
export function byteaAsBase64(column: AnyColumn): SQL<string> {
  return sql<string>`encode(${column}, 'base64')`;
}

export const fromBase64 = (base64: string): Buffer => Buffer.from(base64, 'base64');
