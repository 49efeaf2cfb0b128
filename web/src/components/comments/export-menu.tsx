import { useEffect, useState } from 'react';
import type { FeedbackExport } from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import { exportDownloadUrl, fetchExport, startDocxExport } from '../../api/threads.ts';

const POLL_MS = 1000;

/**
 * The author's export of all feedback: Word (a job: progress, then the file offered), CSV and
 * JSON of every comment and reply, and the survey answers as CSV.
 */
export function ExportMenu({ manuscriptId }: { manuscriptId: number }) {
  const [job, setJob] = useState<FeedbackExport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!job || job.status === 'done' || job.status === 'failed') return;
    const timer = setTimeout(() => {
      fetchExport(manuscriptId, job.id).then(setJob, (error: unknown) =>
        setProblem(errorMessage(error)),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job, manuscriptId]);

  const start = () => {
    setProblem(null);
    startDocxExport(manuscriptId).then(setJob, (error: unknown) => setProblem(errorMessage(error)));
  };
  const base = `/manuscript/${manuscriptId}/export`;
  const link = 'text-xs font-medium text-accent underline-offset-2 hover:underline';
  return (
    <details className="relative" data-export-menu>
      <summary className="btn btn-ghost min-h-8 cursor-pointer list-none px-3 text-xs">
        Export feedback
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-64 flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-left shadow-card">
        <button
          type="button"
          className="btn btn-primary min-h-8 text-xs"
          onClick={start}
          data-export-docx
        >
          Word document with comments
        </button>
        {job && job.status !== 'done' && job.status !== 'failed' ? (
          <div role="status" className="text-xs text-muted" data-export-progress>
            Preparing… {Math.round(job.progress * 100)} %
            <progress className="block w-full" max={1} value={job.progress} />
          </div>
        ) : null}
        {job?.status === 'done' ? (
          <a
            className={link}
            href={exportDownloadUrl(manuscriptId, job.id)}
            download
            data-export-download
          >
            Download {job.file_name}
          </a>
        ) : null}
        {job?.status === 'failed' || problem ? (
          <p role="alert" className="text-xs text-danger">
            {problem ?? job?.error}
          </p>
        ) : null}
        <span className="flex flex-wrap gap-x-3 gap-y-1">
          <a className={link} href={`${base}/feedback/csv`} download>
            Comments (CSV)
          </a>
          <a className={link} href={`${base}/feedback/json`} download>
            Comments (JSON)
          </a>
          <a className={link} href={`${base}/survey/questionaire`} download>
            Questionnaire (CSV)
          </a>
          <a className={link} href={`${base}/survey/feedback`} download>
            Feedback survey (CSV)
          </a>
        </span>
      </div>
    </details>
  );
}
