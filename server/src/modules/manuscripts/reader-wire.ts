import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readerPageResponse, type ReaderPageResponse } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { matchesIfNoneMatch } from '../../plugins/wire.ts';
import { readerMeta, withText, type ReaderMeta } from './reader.ts';
import { storedPart, type StoredPart } from './version-wire.ts';

// The reader's JSON (GET /manuscript/document/reader/:id) is ~1 MB of a version's text and a
// few hundred bytes about this viewer. A version never changes once converted, so its part —
// `{"html":…,"toc":…` — is compressed once (brotli and deflate, kept in
// manuscript_version_wire and in memory) and every answer is those bytes with the viewer's
// tail appended: as an uncompressed brotli meta-block, or a second deflate block run. Nothing
// of the text is serialised, hashed or compressed per request, and the ETag (the version and a
// hash of the tail) lets a returning reader's 304 skip the text altogether. See ARCHITECTURE.md
// "The reader's text on the wire".

/** The gzip member header: deflate, no name, no time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A brotli meta-block with ISLAST and ISLASTEMPTY set: the end of the stream (RFC 7932). */
const BROTLI_END = Buffer.from([0x03]);
/** Longest uncompressed brotli meta-block with a 4-nibble length. */
const BROTLI_BLOCK_MAX = 65_536;

type Encoding = 'br' | 'gzip';

/** `br` or `gzip` when the request accepts it (q > 0), brotli first; null: neither. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
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
  const meta = await readerMeta(ctx, request.user, manuscriptId);
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (meta.versionId === null || encoding === null) return withText(ctx, meta);
  const tail = viewerTail(meta.view);
  const hash = createHash('sha1').update(tail).digest('base64url');
  // Strong: a version's bytes never change, and the tail is hashed as it is sent.
  const etag = `"r${meta.versionId}-${hash}"`;
  reply.header('etag', etag).header('vary', 'accept-encoding');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return reply.code(304).send();
  }
  const part = await storedPart(ctx, meta.versionId);
  if (!part) return withText(ctx, meta);
  const body = encoding === 'br' ? brotliAnswer(part, tail) : gzipAnswer(part, tail);
  return reply
    .header('content-encoding', encoding)
    .type('application/json; charset=utf-8')
    .send(body);
}
