import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, crc32, deflateRaw } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { ReaderPageResponse } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';

// A version's part of the reader answer (`{"html":…,"toc":…`), compressed once and kept: in
// manuscript_version_wire and, up to a budget, in memory. reader-wire.ts sends it.

const brotliAsync = promisify(brotliCompress);
const deflateRawAsync = promisify(deflateRaw);

/** Brotli quality of the stored part: 11 takes seconds on a book, 9 ~0.1 s and ~as small. */
const STORED_BROTLI_QUALITY = 9;
/** Compressed parts kept in memory, in bytes (the rest are read from the table). */
const MEMORY_BUDGET_BYTES = 48 * 1024 * 1024;

/** A version's part of the reader answer, compressed and not finished. */
export interface StoredPart {
  brotli: Buffer;
  deflate: Buffer;
  crc: number;
  length: number;
}

/** What one database's process keeps: parts by version id, oldest first, and those in the making. */
interface Memory {
  parts: Map<number, StoredPart>;
  bytes: number;
  building: Map<number, Promise<StoredPart | null>>;
}
// By database: version ids are that database's own (tests and benchmarks open several).
const memories = new WeakMap<object, Memory>();

function memoryOf(ctx: AppContext): Memory {
  let memory = memories.get(ctx.db);
  if (!memory) {
    memory = { parts: new Map(), bytes: 0, building: new Map() };
    memories.set(ctx.db, memory);
  }
  return memory;
}

function remember(memory: Memory, versionId: number, part: StoredPart): void {
  if (memory.parts.has(versionId)) return;
  memory.parts.set(versionId, part);
  memory.bytes += part.brotli.length + part.deflate.length;
  // Oldest first (a Map keeps insertion order; a hit re-inserts).
  for (const [id, old] of memory.parts) {
    if (memory.bytes <= MEMORY_BUDGET_BYTES) break;
    memory.parts.delete(id);
    memory.bytes -= old.brotli.length + old.deflate.length;
  }
}

/** The version's uncompressed part: the answer's opening up to (not including) its tail. */
export function versionPartText(html: string, toc: ReaderPageResponse['toc']): Buffer {
  return Buffer.from(`{"html":${JSON.stringify(html)},"toc":${JSON.stringify(toc)}`);
}

/** Compresses a version's part, flushed to a byte boundary but left open for the tail. */
export async function compressVersionPart(text: Buffer): Promise<StoredPart> {
  const [brotli, deflate] = await Promise.all([
    brotliAsync(text, {
      finishFlush: zlib.BROTLI_OPERATION_FLUSH,
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: text.length,
      },
    }),
    deflateRawAsync(text, { level: 9, finishFlush: zlib.Z_SYNC_FLUSH }),
  ]);
  return { brotli, deflate, crc: crc32(text), length: text.length };
}

/**
 * The stored part of a version: from memory, the table, or made now (and kept) from the
 * version's text — once, however many readers ask at the same moment.
 */
export async function storedPart(ctx: AppContext, versionId: number): Promise<StoredPart | null> {
  const memory = memoryOf(ctx);
  const known = memory.parts.get(versionId);
  if (known) {
    memory.parts.delete(versionId);
    memory.parts.set(versionId, known);
    return known;
  }
  const pending = memory.building.get(versionId);
  if (pending) return pending;
  const work = loadOrBuild(ctx, versionId)
    .then((part) => {
      if (part) remember(memory, versionId, part);
      return part;
    })
    .finally(() => memory.building.delete(versionId));
  memory.building.set(versionId, work);
  return work;
}

/** Makes and keeps the stored part of a version (at conversion, so no reader waits for it). */
export async function prepareVersionPart(ctx: AppContext, versionId: number): Promise<void> {
  await storedPart(ctx, versionId);
}

async function loadOrBuild(ctx: AppContext, versionId: number): Promise<StoredPart | null> {
  const table = schema.manuscriptVersionWire;
  const [row] = await ctx.db
    .select({ brotli: table.brotli, deflate: table.deflate, crc: table.crc, length: table.length })
    .from(table)
    .where(eq(table.versionId, versionId));
  if (row) return row;
  const [version] = await ctx.db
    .select({ html: schema.manuscriptVersions.html, toc: schema.manuscriptVersions.toc })
    .from(schema.manuscriptVersions)
    .where(eq(schema.manuscriptVersions.id, versionId));
  if (!version) return null;
  const part = await compressVersionPart(versionPartText(version.html, version.toc));
  await ctx.db
    .insert(table)
    .values({ versionId, ...part })
    .onConflictDoNothing({ target: table.versionId });
  return part;
}
