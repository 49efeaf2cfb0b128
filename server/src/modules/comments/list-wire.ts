import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gunzip, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { commentListResponse, type CommentListResponse } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { defineCache } from '../../lib/cache/cache.ts';
import { matchesIfNoneMatch } from '../../plugins/wire.ts';
import { acceptedEncoding } from '../manuscripts/reader-wire.ts';
import { listManuscriptComments } from './queries.ts';
import { loadScope } from './scope.ts';

// GET /comments/manuscript/:id on the wire. A busy manuscript's list is ~2 MB of JSON (2,000
// comments): two large statements, the presentation per viewer, the serialisation and the
// compression take most of a second. Identical answers are made once: the finished answer —
// compressed in both encodings, with its ETag — is kept per (viewer, manuscript, since) while
// none of the tables it reads has changed (lib/cache), and a repeat costs no statement at all,
// the policy check included (a change to the viewer's access is a change, and misses).
//
// The ETag is still the hash of the bytes this viewer is sent (as plugins/wire.ts makes it for
// the other answers, so it is the same whichever encoding was asked): a change to a comment they
// may not see moves nothing they are sent, hence not their ETag (no side channel).

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Brotli quality of a list answer: compressed once per change, on the thread pool. */
const LIST_BROTLI_QUALITY = 5;
/** Finished answers kept, in bytes: ~0.3 MB for 2,000 comments in both encodings. */
const LIST_ANSWER_BUDGET_BYTES = 32 * 1024 * 1024;

/** One viewer's finished answer. */
interface ListAnswer {
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * What a list reads (list-wire.test.ts checks, with the database's own counts, that building
 * one reads nothing else): the comments, their highlights, writers and votes, and the viewer's
 * access to the manuscript. Not the reads' progress, which everyone reading writes every few
 * seconds: a reader's reading-time batch leaves every kept list.
 */
export const COMMENT_LIST_TABLES = [
  'comments',
  'highlights',
  'comment_votes',
  'users',
  'manuscripts',
  'invites',
  'surveys',
  'survey_answers',
] as const;

const listAnswers = defineCache<ListAnswer>({
  name: 'comment_list_answers',
  dependsOn: { tables: COMMENT_LIST_TABLES },
  limit: {
    bytes: LIST_ANSWER_BUDGET_BYTES,
    sizeOf: (answer) => 256 + answer.br.length + answer.gzip.length,
  },
});

/** The list-answer cache (tests look at it). */
export const commentListAnswers = listAnswers;

async function finish(answer: CommentListResponse): Promise<ListAnswer> {
  // As the route's response serializer would: encoded by the schema (what it does not name is
  // not sent), then JSON.
  const json = Buffer.from(JSON.stringify(z.encode(commentListResponse, answer)));
  const [br, gzipped] = await Promise.all([
    brotliAsync(json, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: LIST_BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
    gzipAsync(json, { level: 6 }),
  ]);
  const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
  return { etag, br, gzip: gzipped };
}

/**
 * The comments list for this viewer: the kept finished answer (or a 304), in the encoding the
 * client takes (none: unpacked from the kept gzip). Staff are never kept: listing records what
 * a report let them read (staff-reveals.ts) every time.
 */
export async function sendCommentList(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  manuscriptId: number,
  since: Date | undefined,
): Promise<CommentListResponse | FastifyReply> {
  const viewer: UserRow | null = request.user;
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  const build = async () =>
    listManuscriptComments(ctx.db, await loadScope(ctx, viewer, manuscriptId), since);
  if (viewer && viewer.role !== 'user') return build();
  const key = `${viewer?.id ?? 'anonymous'}:${manuscriptId}:${since?.getTime() ?? ''}`;
  const answer = await listAnswers.of(ctx).get(key, async () => finish(await build()));
  reply.header('etag', answer.etag).header('vary', 'accept-encoding');
  if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) {
    return reply.code(304).send();
  }
  if (encoding === null) {
    // A client that takes no compression (curl, a script): the kept answer unpacked, not built.
    return reply.type('application/json; charset=utf-8').send(await gunzipAsync(answer.gzip));
  }
  return reply
    .header('content-encoding', encoding)
    .type('application/json; charset=utf-8')
    .send(answer[encoding]);
}
