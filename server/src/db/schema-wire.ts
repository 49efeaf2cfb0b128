import { bigint, customType, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { manuscriptVersions } from './schema-manuscripts.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The reader answer's per-version part (`{"html":…,"toc":…`), compressed once (issue 11): a
 * version never changes once converted, so every reader is sent these bytes with only their
 * own small tail appended (modules/manuscripts/reader-wire.ts). Written at conversion, or on the
 * first read of a version converted before this table existed.
 */
export const manuscriptVersionWire = pgTable('manuscript_version_wire', {
  versionId: integer('version_id')
    .primaryKey()
    .references(() => manuscriptVersions.id, { onDelete: 'cascade' }),
  /** Brotli, flushed to a byte boundary but not finished (the tail and the end follow). */
  brotli: bytea('brotli').notNull(),
  /** Raw deflate, sync-flushed, not final (a gzip header goes before, the tail after). */
  deflate: bytea('deflate').notNull(),
  /** CRC-32 and length of the uncompressed part: the gzip trailer is computed from them. */
  crc: bigint('crc', { mode: 'number' }).notNull(),
  length: integer('length').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
