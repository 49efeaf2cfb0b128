import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Manuscript } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { readableManuscripts } from '../access/readable.ts';
import { presentMany } from '../manuscripts/queries.ts';

/**
 * An author's manuscripts as a visitor of their public profile may see them: only what the
 * visitor may open (readableManuscripts, the reader page's own rule), converted and live,
 * newest first.
 */
export async function listProfileManuscripts(
  db: Executor,
  viewer: UserRow | null,
  authorId: number,
): Promise<Manuscript[]> {
  const rows = await db
    .select()
    .from(schema.manuscripts)
    .where(
      and(
        eq(schema.manuscripts.userId, authorId),
        eq(schema.manuscripts.inking, false),
        isNotNull(schema.manuscripts.currentVersionId),
        readableManuscripts(viewer),
        // A suspended author's profile lists nothing (but to themselves, should they see it).
        viewer?.id === authorId
          ? undefined
          : sql`not exists (select 1 from ${schema.users} where ${schema.users.id} = ${authorId}
              and ${schema.users.suspendedAt} is not null)`,
      ),
    )
    .orderBy(desc(schema.manuscripts.createdAt), desc(schema.manuscripts.id));
  return presentMany(db, rows);
}
