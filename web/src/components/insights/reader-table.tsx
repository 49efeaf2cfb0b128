import { useState } from 'react';
import { STOP_REASON_LABELS, type InsightsChapter, type InsightsReader } from '@margins/common';
import { nudgeReader } from '../../api/insights.ts';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../lib/dates.ts';

type SortKey = 'name' | 'furthest' | 'percent' | 'last_active' | 'comments' | 'finished';

const COLUMNS: ReadonlyArray<readonly [SortKey, string]> = [
  ['name', 'Reader'],
  ['furthest', 'Furthest chapter'],
  ['percent', 'Read'],
  ['last_active', 'Last active'],
  ['comments', 'Comments'],
  ['finished', 'Finished'],
];

const sortValue: Record<SortKey, (reader: InsightsReader) => string | number> = {
  name: (reader) => reader.display_name.toLowerCase(),
  furthest: (reader) => reader.furthest_chapter ?? -1,
  percent: (reader) => reader.percent,
  last_active: (reader) => reader.last_active ?? '',
  comments: (reader) => reader.comments,
  finished: (reader) => reader.finished ?? '',
};

const SURVEY_STATES = { none: '—', waiting: 'Awaiting approval', approved: 'Approved' } as const;

/** The per-reader table of the Insights tab, sorted by any column; a nudge per stalled reader. */
export function ReaderTable({
  manuscriptId,
  readers,
  chapters,
}: {
  manuscriptId: number;
  readers: InsightsReader[];
  chapters: InsightsChapter[];
}) {
  const [sort, setSort] = useState<SortKey>('percent');
  const [descending, setDescending] = useState(true);
  const [nudged, setNudged] = useState<Record<number, string>>({});
  const sorted = [...readers].sort((a, b) => {
    const left = sortValue[sort](a);
    const right = sortValue[sort](b);
    const order = left < right ? -1 : left > right ? 1 : 0;
    return descending ? -order : order;
  });

  const handleSort = (key: SortKey) => {
    if (key === sort) setDescending(!descending);
    else {
      setSort(key);
      setDescending(key !== 'name');
    }
  };

  const handleNudge = async (reader: InsightsReader) => {
    try {
      await nudgeReader(manuscriptId, reader.user_id);
      setNudged((current) => ({ ...current, [reader.user_id]: 'Reminder sent' }));
    } catch (error) {
      setNudged((current) => ({ ...current, [reader.user_id]: errorMessage(error) }));
    }
  };

  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-left text-sm" data-testid="insights-readers">
        <caption className="sr-only">Readers and how far each got</caption>
        <thead className="border-b border-line text-xs text-muted">
          <tr>
            {COLUMNS.map(([key, label]) => (
              <th
                key={key}
                scope="col"
                className="py-2 pr-3 font-semibold"
                aria-sort={sort === key ? (descending ? 'descending' : 'ascending') : undefined}
              >
                <button type="button" className="hover:text-ink" onClick={() => handleSort(key)}>
                  {label}
                  {sort === key ? (descending ? ' ↓' : ' ↑') : ''}
                </button>
              </th>
            ))}
            <th scope="col" className="py-2 pr-3 font-semibold">
              Surveys
            </th>
            <th scope="col" className="py-2 font-semibold">
              <span className="sr-only">Remind</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((reader) => {
            const furthest =
              reader.furthest_chapter === null
                ? 'Not started'
                : (chapters[reader.furthest_chapter]?.title ?? '—');
            const stalled = !reader.finished && !reader.stopped;
            return (
              <tr key={reader.user_id} className="border-b border-line/60 align-top">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {reader.display_name}
                  {reader.stopped ? (
                    <span className="block text-xs font-normal text-muted">
                      Stopped: {STOP_REASON_LABELS[reader.stopped.reason]}
                    </span>
                  ) : null}
                </th>
                <td className="py-2 pr-3">{furthest}</td>
                <td className="py-2 pr-3 tabular-nums">{Math.round(reader.percent)}%</td>
                <td className="py-2 pr-3">
                  {reader.last_active ? formatDate(reader.last_active) : '—'}
                </td>
                <td className="py-2 pr-3 tabular-nums">{reader.comments}</td>
                <td className="py-2 pr-3">
                  {reader.finished ? formatDate(reader.finished) : 'No'}
                </td>
                <td className="py-2 pr-3 text-xs">
                  Questionnaire: {SURVEY_STATES[reader.questionnaire]}
                  <br />
                  Feedback: {reader.feedback === 'answered' ? 'Answered' : '—'}
                </td>
                <td className="py-2 text-right">
                  {nudged[reader.user_id] ? (
                    <span className="text-xs text-muted" role="status">
                      {nudged[reader.user_id]}
                    </span>
                  ) : stalled ? (
                    <button
                      type="button"
                      className="btn btn-ghost min-h-8 px-2 text-xs"
                      onClick={() => void handleNudge(reader)}
                    >
                      Nudge
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
