import { createHash } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import compress from '@fastify/compress';

/** Answers below this size are sent as they are: compressing them costs more than it saves. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * JSON answers below this size get no ETag: a 304's own headers weigh about as much as the
 * answer, so hashing it (on every request: /healthz, small JSON) saves the client nothing.
 * Media and pages keep theirs whatever their size (a revalidated picture is a 304).
 */
const ETAG_MIN_BYTES = 256;

/**
 * Brotli quality for answers compressed as they are sent (JSON, pages). 4 is ~10× faster
 * than the default 11 and within ~10 % of its size on our JSON; the built assets are
 * compressed once at build time at the highest quality instead (web/scripts/precompress.mjs).
 */
const DYNAMIC_BROTLI_QUALITY = 4;

/**
 * Bytes on the wire: brotli or gzip by `Accept-Encoding` for every compressible answer, a
 * strong `ETag` on every successful GET answer so a returning client gets `304 Not Modified`
 * instead of the same bytes again, and API answers marked private (never kept by shared
 * caches; the browser revalidates each time).
 *
 * The ETag hashes the bytes this viewer is sent, so it changes exactly when what they may
 * see changes: a private comment they may not read cannot move their ETag (no side channel).
 */
export async function registerWire(app: FastifyInstance): Promise<void> {
  // Registered before compression: onSend hooks run in order, so the ETag is taken from the
  // uncompressed answer and a 304 is decided before anything is compressed.
  // Not async (it waits for nothing): a kept answer passes without a promise of its own.
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, withEtag(request, reply, payload));
  });

  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 6 },
  });
}

/** The payload to send: as it is, or '' for a 304 (see registerWire). */
function withEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!isCacheableGet(request, reply)) return payload;
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (reply.getHeader('cache-control') === 'no-store') return payload;
  const given = reply.getHeader('etag');
  if (payload.length < ETAG_MIN_BYTES && given === undefined && isJson(reply)) return payload;
  // A kept answer (reader JSON, comments list) comes with its ETag: nothing is hashed here.
  const etag =
    given !== undefined
      ? String(given)
      : `"${createHash('sha1').update(payload).digest('base64url')}"`;
  if (given === undefined) reply.header('etag', etag);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-length');
  return '';
}

function isCacheableGet(request: FastifyRequest, reply: FastifyReply): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
}

/** True when the request's `If-None-Match` names this ETag (or `*`); weak forms compare equal. */
function isJson(reply: FastifyReply): boolean {
  return String(reply.getHeader('content-type') ?? '').startsWith('application/json');
}

export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}
