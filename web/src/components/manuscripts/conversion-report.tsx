import { useQuery } from '@tanstack/react-query';
import type { ConversionReport } from '@margins/common';
import { conversionReportKey, fetchConversionReport } from '../../api/conversion-report.ts';
import { formatCount } from '../../lib/numbers.ts';

const COUNTS: ReadonlyArray<readonly [keyof ConversionReport, string, string]> = [
  ['words', 'word', 'words'],
  ['chapters', 'chapter', 'chapters'],
  ['images', 'picture', 'pictures'],
  ['footnotes', 'footnote', 'footnotes'],
  ['tables', 'table', 'tables'],
  ['formulas', 'formula', 'formulas'],
];

/**
 * What the conversion of an upload kept (words, chapters, pictures, notes, tables, formulas)
 * and, in amber, each thing it could not keep with why (issue 10 item 8).
 */
export function ConversionReportView({ report }: { report: ConversionReport }) {
  const counts = COUNTS.filter(([key]) => key === 'words' || (report[key] as number) > 0).map(
    ([key, one, many]) => {
      const value = report[key] as number;
      return `${formatCount(value)} ${value === 1 ? one : many}`;
    },
  );
  return (
    <div className="space-y-2 text-sm" data-conversion-report>
      <p className="text-ink">
        <span className="font-semibold">Kept: </span>
        {counts.join(' · ')}
      </p>
      {report.notes.length > 0 ? (
        <ul
          className="space-y-1 rounded-lg border border-accent/40 bg-accent-soft px-3 py-2 text-ink"
          aria-label="What could not be kept"
        >
          {report.notes.map((note) => (
            <li key={note} className="flex gap-2">
              <span aria-hidden="true">⚠</span>
              <span>{note}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted">Nothing was left out.</p>
      )}
    </div>
  );
}

/** The edit view's report of the current draft, fetched when shown. */
export function ConversionReportPanel({
  manuscriptId,
  updated,
}: {
  manuscriptId: number;
  updated: string;
}) {
  const query = useQuery({
    queryKey: conversionReportKey(manuscriptId, updated),
    queryFn: () => fetchConversionReport(manuscriptId),
  });
  const data = query.data;
  return (
    <section aria-labelledby={`report-${manuscriptId}`} className="space-y-3">
      <h3 id={`report-${manuscriptId}`} className="font-serif text-lg text-ink">
        Conversion report
      </h3>
      {query.isError ? (
        <p className="text-sm text-danger">The report could not be loaded.</p>
      ) : null}
      {data && data.report === null ? (
        <p className="text-sm text-muted">
          This draft was converted before reports were kept. Upload it again to get one.
        </p>
      ) : null}
      {data?.report ? (
        <>
          {data.file_name ? (
            <p className="text-sm text-muted">
              From <span className="font-semibold break-all text-ink">{data.file_name}</span>
            </p>
          ) : null}
          <ConversionReportView report={data.report} />
        </>
      ) : null}
    </section>
  );
}
