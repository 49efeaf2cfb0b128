import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { MANUSCRIPT_FILE_FIELD, MESSAGES } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import type { SourceFormat } from '../../conversion/types.ts';
import { schema, type Executor } from '../../db/index.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { tierWordLimit } from '../payments/subscriptions.ts';

/**
 * How many words a user may have across their live manuscripts: their active subscription
 * tier's limit, never below the free tier's (WORD_LIMIT_FREE).
 */
export async function wordLimitFor(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'role'>,
  executor: Executor = ctx.db,
): Promise<number> {
  return tierWordLimit(executor, user.id, ctx.config.wordLimitFree);
}

/** Words of a user's live (not archived) manuscripts, leaving one out (the one being replaced). */
export async function wordsInUse(
  executor: Executor,
  userId: number,
  exceptManuscriptId?: number,
): Promise<number> {
  const conditions = [eq(schema.manuscripts.userId, userId), isNull(schema.manuscripts.archivedAt)];
  if (exceptManuscriptId !== undefined) {
    conditions.push(ne(schema.manuscripts.id, exceptManuscriptId));
  }
  const [row] = await executor
    .select({ total: sql<string>`coalesce(sum(${schema.manuscripts.words}), 0)` })
    .from(schema.manuscripts)
    .where(and(...conditions));
  return Number(row?.total ?? 0);
}

/**
 * Plain text and Markdown have at least one word per this many bytes in any language we count
 * (a run of CJK letters is one word up to its punctuation; UTF-16 doubles the bytes): a
 * lower bound, so that the estimate never refuses a file that would have fitted.
 */
const MAX_BYTES_PER_WORD = 64;

/**
 * The fewest words an upload can have, from its size: only plain formats say it (in DOCX, ODT,
 * RTF and HTML the bytes may be markup or images).
 */
export function wordsAtLeast(format: SourceFormat, byteLength: number): number {
  return format === 'txt' || format === 'md' ? Math.floor(byteLength / MAX_BYTES_PER_WORD) : 0;
}

/**
 * Refuses (413), before it is queued, an upload whose size alone takes the author over their
 * word limit; the converted text is checked again when it is saved.
 */
export async function checkWordEstimate(
  ctx: AppContext,
  executor: Executor,
  user: Pick<UserRow, 'id' | 'role'>,
  upload: { format: SourceFormat; byteLength: number; replacesManuscriptId?: number },
): Promise<void> {
  const estimate = wordsAtLeast(upload.format, upload.byteLength);
  if (estimate === 0) return;
  const limit = await wordLimitFor(ctx, user, executor);
  const inUse = await wordsInUse(executor, user.id, upload.replacesManuscriptId);
  if (inUse + estimate <= limit) return;
  throw new HttpError(413, MESSAGES.overWordLimit, {
    [MANUSCRIPT_FILE_FIELD]: [MESSAGES.overWordLimit],
  });
}
