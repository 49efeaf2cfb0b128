import { and, count, eq, inArray } from 'drizzle-orm';
import { CONVERSIONS_WAITING_PER_USER, MESSAGES } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { tooMany } from '../../lib/http-errors.ts';

/** Where a conversion job goes in the queue: its priority and its group (the author). */
interface QueuePlace {
  priority: number;
  group: string;
}

/**
 * The queue place of a new conversion of this author: round-robin between authors. The job's
 * priority is minus the number of the author's conversions already waiting, so every author's
 * first waiting upload goes before anyone's second, every second before anyone's third, and
 * so on; within one round, in the order they came. An author who sent 90 uploads cannot make
 * another author's single upload wait for them. Refuses (429) an author who already has
 * CONVERSIONS_WAITING_PER_USER waiting. Locks the author's row, so that concurrent uploads of
 * one author count one another.
 */
export async function placeInQueue(tx: Tx, user: UserRow): Promise<QueuePlace> {
  await tx
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(schema.users.id, user.id))
    .for('update');
  const [row] = await tx
    .select({ waiting: count() })
    .from(schema.documentConversions)
    .where(
      and(
        eq(schema.documentConversions.userId, user.id),
        inArray(schema.documentConversions.status, ['PENDING', 'PROGRESS']),
      ),
    );
  const waiting = row?.waiting ?? 0;
  if (waiting >= CONVERSIONS_WAITING_PER_USER) {
    throw tooMany(MESSAGES.tooManyUploadsWaiting(waiting));
  }
  return { priority: -waiting, group: `user:${user.id}` };
}
