import type { AppContext, UserRow } from '../../context.ts';
import type { schema } from '../../db/index.ts';
import { findOpenReport, findReportedComments } from './open-reports.ts';
import { isStaff, NO_READER_ACCESS, type PolicyUser, type ReaderAccess } from './policy.ts';
import { readerFacts } from './reader-facts.ts';

/** The viewer as loadReaderAccess needs them (a UserRow fits). */
type AccessViewer = (NonNullable<PolicyUser> & Partial<Pick<UserRow, 'certified18At'>>) | null;

/**
 * Loads the viewer's grant (invite, link, approved request) and questionnaire state for one
 * manuscript (readerFacts: one statement), for canOpen()/readGate()/canRead(), and for staff
 * whether a report on it is open (the staff reading rule). Authors pass every check anyway.
 */
export async function loadReaderAccess(
  ctx: Pick<AppContext, 'db'>,
  viewer: AccessViewer,
  manuscript: Pick<typeof schema.manuscripts.$inferSelect, 'id' | 'userId'>,
): Promise<ReaderAccess> {
  const certified18 = viewer?.certified18At != null;
  if (viewer?.id === manuscript.userId) return { ...NO_READER_ACCESS, certified18 };
  const viewerId = viewer?.id ?? null;
  const [factsOf, openReport, reportedComments] = await Promise.all([
    readerFacts(ctx.db, [manuscript.id], [viewerId]),
    isStaff(viewer)
      ? findOpenReport(ctx.db, manuscript.id).then((id) => id !== null)
      : Promise.resolve(false),
    isStaff(viewer) ? findReportedComments(ctx.db, manuscript.id) : Promise.resolve(undefined),
  ]);
  return {
    ...factsOf(manuscript.id, viewerId),
    certified18,
    openReport,
    ...(reportedComments ? { reportedComments } : {}),
  };
}
