import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';

/**
 * How many words a user may have across their live manuscripts. Every user is on the free tier
 * for now; subscription tiers (the payments issue) return their own limit here.
 */
export async function wordLimitFor(
  ctx: AppContext,
  _user: Pick<UserRow, 'id' | 'role'>,
  _executor: Executor = ctx.db,
): Promise<number> {
  return ctx.config.wordLimitFree;
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
