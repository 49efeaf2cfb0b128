import { eq } from 'drizzle-orm';
import { schema } from '../../db/index.ts';
import type { RowsReaders } from '../../events/recovered-rows.ts';
import { findManuscript } from '../manuscripts/queries.ts';

/** How access.granted's rows are read back when it is recovered (events/recovered-rows.ts). */
export const accessEventRows: RowsReaders = {
  'access.granted': async (db, payload) => {
    const [manuscript, [reader]] = await Promise.all([
      findManuscript(db, payload.manuscriptId),
      db.select().from(schema.users).where(eq(schema.users.id, payload.userId)),
    ]);
    return manuscript && reader ? { reader, manuscript } : null;
  },
};
