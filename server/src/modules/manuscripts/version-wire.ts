import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, crc32, deflateRaw, inflateRaw } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { ReaderPageResponse } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { defineCache } from '../../lib/cache/cache.ts';

// A version's part of the reader answer (`{"html":…,"toc":…`), compressed once and kept: in
// manuscript_version_wire and, up to a budget, in memory (lib/cache). reader-wire.ts sends it.

const brotliAsync = promisify(brotliCompress);
const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

/** Brotli quality of the stored part: 11 takes seconds on a book, 9 ~0.1 s and ~as small. */
const STORED_BROTLI_QUALITY = 9;
/** Compressed parts kept in memory, in bytes (the rest are read from the table). */
const MEMORY_BUDGET_BYTES = 48 * 1024 * 1024;
/** Uncompressed parts kept, in bytes (~1 MB a 150k-word book). */
const PLAIN_BUDGET_BYTES = 16 * 1024 * 1024;

/** A version's part of the reader answer, compressed and not finished. */
export interface StoredPart {
  brotli: Buffer;
  deflate: Buffer;
  crc: number;
  length: number;
}

/** Compressed parts by version id (a version's text never changes once converted). */
const storedParts = defineCache<StoredPart>({
  name: 'version_parts',
  dependsOn: { immutable: 'keyed by a version’s id: a converted version never changes' },
  limit: { bytes: MEMORY_BUDGET_BYTES, sizeOf: (part) => part.brotli.length + part.deflate.length },
});

/**
 * The same parts uncompressed, for the few clients that take no compression (a script, curl):
 * kept too, so such a client costs a copy, not a serialisation of the book.
 */
const plainParts = defineCache<Buffer>({
  name: 'version_parts_plain',
  dependsOn: { immutable: 'keyed by a version’s id: a converted version never changes' },
  limit: { bytes: PLAIN_BUDGET_BYTES, sizeOf: (text) => text.length },
});

/** The version's uncompressed part: the answer's opening up to (not including) its tail. */
function versionPartText(html: string, toc: ReaderPageResponse['toc']): Buffer {
  return Buffer.from(`{"html":${JSON.stringify(html)},"toc":${JSON.stringify(toc)}`);
}

/** Compresses a version's part, flushed to a byte boundary but left open for the tail. */
async function compressVersionPart(text: Buffer): Promise<StoredPart> {
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
  const cache = storedParts.of(ctx);
  const part = await cache
    .get(String(versionId), async () => {
      const made = await loadOrBuild(ctx, versionId);
      if (!made) throw new VersionMissing();
      return made;
    })
    .catch((error: unknown) => {
      if (error instanceof VersionMissing) return null;
      throw error;
    });
  return part;
}

/** No such version (nothing is kept for it). */
class VersionMissing extends Error {}

/** The version's part uncompressed (the stored deflate blocks inflated once, and kept). */
export async function versionPartPlain(ctx: AppContext, versionId: number): Promise<Buffer | null> {
  const part = await storedPart(ctx, versionId);
  if (!part) return null;
  return plainParts
    .of(ctx)
    .get(String(versionId), async () =>
      inflateRawAsync(part.deflate, { finishFlush: zlib.Z_SYNC_FLUSH }),
    );
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
