import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { ADMIN_UI_MESSAGES, MESSAGES, type ReportGroup } from '@margins/common';
import { useAdminSetup } from './admin-meta.ts';
import { ReportQueueActions } from './report-queue-actions.tsx';

const PER_PAGE = 20;

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

function QueueEntry({ group, onDone }: { group: ReportGroup; onDone: () => void }) {
  const kind = group.model_name === 'comment' ? 'Comment' : 'Manuscript';
  return (
    <li className="admin-queue-entry" data-element={`${group.model_name}-${group.element_id}`}>
      <article aria-labelledby={`queue-${group.model_name}-${group.element_id}`}>
        <header className="admin-queue-head">
          <h2 id={`queue-${group.model_name}-${group.element_id}`}>
            {kind} #{group.element_id}
            {group.author ? ` by ${group.author.display_name}` : ''}
          </h2>
          <p>
            {ADMIN_UI_MESSAGES.queueReported(group.open_count)} · last{' '}
            <time dateTime={group.latest}>{formatDate(group.latest)}</time>
          </p>
        </header>
        <blockquote className="admin-queue-text">{group.text}</blockquote>
        {group.context ? <p className="admin-queue-context">{group.context}</p> : null}
        {group.missing ? (
          <p className="admin-queue-note">{ADMIN_UI_MESSAGES.queueMissing}</p>
        ) : null}
        {group.moderation_flag ? (
          <p className="admin-queue-note">
            {ADMIN_UI_MESSAGES.queueFlagged(group.moderation_reason)}
          </p>
        ) : null}
        {group.manuscript_id !== null && !group.missing ? (
          <p>
            <a href={`/manuscript/document/reader/${group.manuscript_id}`}>
              {ADMIN_UI_MESSAGES.queueOpen}
            </a>
          </p>
        ) : null}
        <ul className="admin-queue-reports" aria-label="Reports">
          {group.reports.map((report) => (
            <li key={report.id}>
              <strong>{report.reason}</strong>
              {report.description ? `: “${report.description}”` : ''} —{' '}
              {report.reporter.display_name},{' '}
              <time dateTime={report.created}>{formatDate(report.created)}</time> ({report.status})
            </li>
          ))}
        </ul>
        <ReportQueueActions group={group} onDone={onDone} />
      </article>
    </li>
  );
}

/**
 * The moderator's landing screen: reported elements, the most recently reported first, each
 * with its text, where it is, its reports and the actions (GET
 * /admin/api/moderation-report/views/queue, declared by the moderation-report section).
 */
export function ReportQueue() {
  const { dataProvider } = useAdminSetup();
  const queryClient = useQueryClient();
  const [showAll, setShowAll] = useState(false);
  const [page, setPage] = useState(1);
  const status = showAll ? 'all' : 'open';
  const queue = useQuery({
    queryKey: ['admin-report-queue', status, page],
    queryFn: () =>
      dataProvider.view<{ items: ReportGroup[]; total: number }>('moderation-report', 'queue', {
        status,
        page: String(page),
        per_page: String(PER_PAGE),
      }),
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['admin-report-queue'] });
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / PER_PAGE)) : 1;
  return (
    <div className="admin-queue">
      <Title title={ADMIN_UI_MESSAGES.queueTitle} />
      <label className="admin-queue-toggle">
        <input
          type="checkbox"
          checked={showAll}
          onChange={(event) => {
            setShowAll(event.target.checked);
            setPage(1);
          }}
        />{' '}
        {ADMIN_UI_MESSAGES.queueShowAll}
      </label>
      {queue.isPending ? <p aria-busy="true">Loading…</p> : null}
      {queue.isError ? <p role="alert">{MESSAGES.serverError}</p> : null}
      {queue.data && queue.data.items.length === 0 ? <p>{ADMIN_UI_MESSAGES.queueEmpty}</p> : null}
      {queue.data ? (
        <ol className="admin-queue-list">
          {queue.data.items.map((group) => (
            <QueueEntry
              key={`${group.model_name}-${group.element_id}`}
              group={group}
              onDone={reload}
            />
          ))}
        </ol>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="Queue pages" className="admin-queue-pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}
