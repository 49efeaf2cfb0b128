import { eq } from 'drizzle-orm';
import { schema } from '../../db/index.ts';
import type { RowsReaders } from '../../events/recovered-rows.ts';
import { findManuscript } from '../manuscripts/queries.ts';

/** How manuscript.flagged's rows are read back when it is recovered (events/recovered-rows.ts). */
export const moderationEventRows: RowsReaders = {
  'manuscript.flagged': async (db, payload) => {
    const manuscript = await findManuscript(db, payload.manuscriptId);
    if (!manuscript) return null;
    const [author] = await db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, manuscript.userId));
    return author ? { manuscript, author } : null;
  },
};
