import { randomBytes } from 'node:crypto';
import { schema, type Executor } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';

/** A report (with a reason of its own and a new reporter unless given) on a manuscript or comment. */
export async function buildReport(
  db: Executor,
  input: {
    model: 'manuscript' | 'comment';
    elementId: number;
    status?: 'open' | 'resolved' | 'dismissed';
    reporterId?: number;
    description?: string;
  },
) {
  const [reason] = await db
    .insert(schema.reportReasons)
    .values({ reason: `Reason ${randomBytes(4).toString('hex')}` })
    .returning();
  const reporterId = input.reporterId ?? (await buildUser(db)).id;
  const [report] = await db
    .insert(schema.reports)
    .values({
      modelName: input.model,
      reportElementId: input.elementId,
      reasonId: reason!.id,
      reasonDescription: input.description ?? '',
      reporterId,
      status: input.status ?? 'open',
    })
    .returning();
  return { report: report!, reason: reason! };
}
