// Highlights left without a comment (the tab closed while the comment editor was open) are
// removed after a day: nobody else sees them after 15 minutes, and they would pile up for good.
import { and, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';

/** How long a highlight may wait for its first comment. */
const ABANDONED_HIGHLIGHT_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Soft-deletes (a tombstone for readers catching up) every live highlight older than `hours`
 * that has no live comment; returns how many. Idempotent, so several processes may run it.
 */
export async function sweepAbandonedHighlights(
  db: AppContext['db'],
  hours = ABANDONED_HIGHLIGHT_HOURS,
): Promise<number> {
  const { highlights, comments } = schema;
  const swept = await db
    .update(highlights)
    .set({ deletedAt: sql`now()`, changedAt: sql`now()` })
    .where(
      and(
        isNull(highlights.deletedAt),
        lt(highlights.createdAt, sql`now() - make_interval(hours => ${hours})`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(comments)
            .where(
              and(sql`${comments.selectionId} = ${highlights.id}`, isNull(comments.deletedAt)),
            ),
        ),
      ),
    )
    .returning({ id: highlights.id });
  return swept.length;
}

/** Sweeps a minute after start, then every hour, until the app closes. */
export function scheduleHighlightSweep(ctx: AppContext, log: (error: unknown) => void): () => void {
  const run = () => void sweepAbandonedHighlights(ctx.db).catch(log);
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
