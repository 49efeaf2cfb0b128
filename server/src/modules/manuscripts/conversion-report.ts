// The conversion report of an upload (issue 10 item 8): stored with the version it made, shown
// to the author after the upload (the state call) and in the manuscript's edit view.
import { eq } from 'drizzle-orm';
import type { ConversionReport, ManuscriptReportResponse } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import type { ManuscriptRow } from './presenter.ts';

/** The report stored with a version, or null (none, or converted before reports were kept). */
export async function findVersionReport(
  db: Executor,
  versionId: number | null,
): Promise<ConversionReport | null> {
  if (versionId === null) return null;
  const [row] = await db
    .select({ report: schema.manuscriptVersions.report })
    .from(schema.manuscriptVersions)
    .where(eq(schema.manuscriptVersions.id, versionId));
  return row?.report ?? null;
}

/** The report of a manuscript's current draft, with the file it came from. */
export async function presentCurrentReport(
  db: Executor,
  manuscript: ManuscriptRow,
): Promise<ManuscriptReportResponse> {
  if (manuscript.currentVersionId === null) {
    return { report: null, file_name: null, source_format: null, converted: null };
  }
  const [row] = await db
    .select({
      report: schema.manuscriptVersions.report,
      fileName: schema.manuscriptVersions.fileName,
      sourceFormat: schema.manuscriptVersions.sourceFormat,
      createdAt: schema.manuscriptVersions.createdAt,
    })
    .from(schema.manuscriptVersions)
    .where(eq(schema.manuscriptVersions.id, manuscript.currentVersionId));
  return {
    report: row?.report ?? null,
    file_name: row?.fileName ?? null,
    source_format: row?.sourceFormat ?? null,
    converted: row?.createdAt.toISOString() ?? null,
  };
}
