import { desc, eq, sql } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { ReceivedTipRow } from './presenter.ts';

/** How many of the latest tips the dashboard lists. */
const RECENT_TIPS = 50;

/** The tips an author received, newest first, and their total in minor units. */
export async function receivedTips(
  executor: Executor,
  authorId: number,
): Promise<{ rows: ReceivedTipRow[]; total: number }> {
  const rows = await executor
    .select({
      tip: schema.tips,
      manuscriptTitle: schema.manuscripts.title,
      payerName: schema.users.displayName,
    })
    .from(schema.tips)
    .leftJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.tips.manuscriptId))
    .leftJoin(schema.users, eq(schema.users.id, schema.tips.payerId))
    .where(eq(schema.tips.authorId, authorId))
    .orderBy(desc(schema.tips.createdAt), desc(schema.tips.id))
    .limit(RECENT_TIPS);
  const [sum] = await executor
    .select({ total: sql<string>`coalesce(sum(${schema.tips.amount}), 0)` })
    .from(schema.tips)
    .where(eq(schema.tips.authorId, authorId));
  return { rows, total: Number(sum?.total ?? 0) };
}
