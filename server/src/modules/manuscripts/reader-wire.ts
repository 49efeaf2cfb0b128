import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readerPageResponse, type ReaderPageResponse } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { defineCache } from '../../lib/cache/cache.ts';
import { matchesIfNoneMatch } from '../../plugins/wire.ts';
import { readerMeta, withText, type ReaderMeta } from './reader.ts';
import { storedPart, versionPartPlain, type StoredPart } from './version-wire.ts';

// The reader's JSON (GET /manuscript/document/reader/:id) is ~1 MB of a version's text and a
// few hundred bytes about this viewer. A version never changes once converted, so its part —
// `{"html":…,"toc":…` — is compressed once (brotli and deflate, kept in
// manuscript_version_wire and in memory) and every answer is those bytes with the viewer's
// tail appended: as an uncompressed brotli meta-block, or a second deflate block run. Nothing
// of the text is serialised, hashed or compressed per request, and the ETag (the version and a
// hash of the tail) lets a returning reader's 304 skip the text altogether. See ARCHITECTURE.md
// "The reader's text on the wire".
//
// The viewer's part (readerMeta: the manuscript, their access, bookmark, gate…) takes about ten
// statements; it is kept per (viewer, manuscript) while the database has not changed
// (lib/cache), so a reader asking again — a 304 or a reload — costs no statement here.

/** The gzip member header: deflate, no name, no time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A brotli meta-block with ISLAST and ISLASTEMPTY set: the end of the stream (RFC 7932). */
const BROTLI_END = Buffer.from([0x03]);
/** Longest uncompressed brotli meta-block with a 4-nibble length. */
const BROTLI_BLOCK_MAX = 65_536;

type Encoding = 'br' | 'gzip';

/** Accept-Encoding values seen, parsed: browsers send one of a handful, every request. */
const acceptedByHeader = new Map<string, Encoding | null>();
const ACCEPTED_BY_HEADER_MAX = 64;

/** `br` or `gzip` when the request accepts it (q > 0), brotli first; null: neither. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  if (typeof header !== 'string') return parseAcceptEncoding(header);
  const known = acceptedByHeader.get(header);
  if (known !== undefined) return known;
  const encoding = parseAcceptEncoding(header);
  if (acceptedByHeader.size >= ACCEPTED_BY_HEADER_MAX) acceptedByHeader.clear();
  acceptedByHeader.set(header, encoding);
  return encoding;
}

function parseAcceptEncoding(header: string | string[] | undefined): Encoding | null {
  const accepted = new Set<string>();
  for (const item of String(header ?? '').split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (q && Number(q.slice(2)) <= 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** The tail of the answer after the version's part: `,"words":…,…}` (this viewer's fields). */
function viewerTail(view: ReaderMeta['view']): Buffer {
  const checked = readerTail.parse(view);
  return Buffer.from(',' + JSON.stringify(checked).slice(1));
}
const readerTail = readerPageResponse.omit({ html: true, toc: true });

/** Brotli: the stored part, the tail as uncompressed meta-blocks, the end (RFC 7932 §9.2). */
function brotliAnswer(part: StoredPart, tail: Buffer): Buffer {
  const pieces = [part.brotli];
  for (let at = 0; at < tail.length; at += BROTLI_BLOCK_MAX) {
    const chunk = tail.subarray(at, at + BROTLI_BLOCK_MAX);
    // ISLAST 0, MNIBBLES 0 (4 nibbles), MLEN-1 in 16 bits, ISUNCOMPRESSED 1; padded to a byte.
    const bits = ((chunk.length - 1) << 3) | (1 << 19);
    pieces.push(Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]), chunk);
  }
  pieces.push(BROTLI_END);
  return Buffer.concat(pieces);
}

/** Gzip: header, the stored deflate blocks, the tail's own final blocks, CRC and length. */
function gzipAnswer(part: StoredPart, tail: Buffer): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, part.crc) >>> 0, 0);
  trailer.writeUInt32LE((part.length + tail.length) >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, part.deflate, deflateRawSync(tail), trailer]);
}

/** readerMeta with its ETag and finished answers, as kept between requests. */
interface ViewerPart {
  meta: ReaderMeta;
  etag: string | null;
  /** This viewer's fields after the version's part (null while the text is withheld). */
  tail: Buffer | null;
  /** The answer in each encoding; null while the text is withheld (a gate, no version yet). */
  bodies: Record<Encoding, Buffer> | null;
}

/**
 * Viewer parts kept, in bytes: each holds its answer finished in both encodings (~0.3 MB for a
 * 150k-word book), so a reader asking again costs no statement, no copy and no allocation.
 */
const VIEWER_PART_BUDGET_BYTES = 32 * 1024 * 1024;

/**
 * What readerMeta reads (reader-wire.test.ts checks, with the database's own counts, that it
 * reads nothing else): the manuscript and its draft, author and genres, the viewer's grant,
 * questionnaire answer and read, the comment count, and the staff openings shown to the owner.
 */
export const READER_META_TABLES = [
  'manuscripts',
  'manuscript_versions',
  'manuscript_genres',
  'genres',
  'users',
  'invites',
  'surveys',
  'survey_answers',
  'bookmarks',
  'comments',
  'staff_openings',
] as const;

const viewerParts = defineCache<ViewerPart>({
  name: 'reader_viewer_parts',
  dependsOn: { tables: READER_META_TABLES },
  limit: {
    bytes: VIEWER_PART_BUDGET_BYTES,
    sizeOf: (part) =>
      1024 +
      (part.tail?.length ?? 0) +
      (part.bodies ? part.bodies.br.length + part.bodies.gzip.length : 0),
  },
});

async function viewerPart(ctx: AppContext, meta: ReaderMeta): Promise<ViewerPart> {
  const part = meta.versionId === null ? null : await storedPart(ctx, meta.versionId);
  if (meta.versionId === null || !part) return { meta, etag: null, tail: null, bodies: null };
  const tail = viewerTail(meta.view);
  const hash = createHash('sha1').update(tail).digest('base64url');
  // Strong: a version's bytes never change, and the tail is hashed as it is sent.
  const etag = `"r${meta.versionId}-${hash}"`;
  return {
    meta,
    etag,
    tail,
    bodies: { br: brotliAnswer(part, tail), gzip: gzipAnswer(part, tail) },
  };
}

/**
 * This viewer's part, kept while the database is unchanged. Staff are not kept: their opening
 * of a manuscript a report lets them read is recorded (readerMeta) every time they ask.
 */
async function loadViewerPart(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ViewerPart> {
  const compute = async () => viewerPart(ctx, await readerMeta(ctx, viewer, manuscriptId));
  if (viewer && viewer.role !== 'user') return compute();
  return viewerParts.of(ctx).get(`${viewer?.id ?? 'anonymous'}:${manuscriptId}`, compute);
}

/** The viewer-part cache (tests look at its bounds). */
export const readerViewerParts = viewerParts;

/**
 * GET /manuscript/document/reader/:id as JSON: the stored part and this viewer's tail, or a
 * 304 decided before the text is touched. Without a compression the client accepts, or while
 * the text is withheld, the answer is built as a whole (small, or rare).
 */
export async function sendReaderJson(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  manuscriptId: number,
): Promise<ReaderPageResponse | FastifyReply> {
  const { meta, etag, tail, bodies } = await loadViewerPart(ctx, request.user, manuscriptId);
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (etag === null || bodies === null || tail === null) return withText(ctx, meta);
  reply.header('etag', etag).header('vary', 'accept-encoding');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return reply.code(304).send();
  }
  if (encoding === null) {
    // A client that takes no compression (curl, a script): the version's text as kept, and
    // the tail; nothing is serialised again.
    const text = await versionPartPlain(ctx, meta.versionId!);
    if (!text) return withText(ctx, meta);
    return reply.type('application/json; charset=utf-8').send(Buffer.concat([text, tail]));
  }
  return reply
    .header('content-encoding', encoding)
    .type('application/json; charset=utf-8')
    .send(bodies[encoding]);
}
