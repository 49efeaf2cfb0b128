import { UpgradeLink } from '../payments/upgrade-link.tsx';
import { ConversionReportView } from './conversion-report.tsx';
import type { UploadFlowState } from './use-upload-flow.ts';

/** The small spinner of things being inked. */
export function InkSpinner({ className = 'size-4' }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`${className} shrink-0 animate-spin text-accent`}
      data-ink-spinner
    >
      <circle
        cx="12"
        cy="12"
        r="9"
        fill="none"
        stroke="currentColor"
        strokeOpacity="0.2"
        strokeWidth="3"
      />
      <path
        d="M12 3a9 9 0 0 1 9 9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

function Bar({ fraction, label }: { fraction: number | null; label: string }) {
  const percent = fraction === null ? null : Math.round(fraction * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={percent === null ? 'Working' : `${percent}%`}
      className="relative h-2 overflow-hidden rounded-full bg-sunken"
    >
      {percent === null ? (
        <div className="ink-indeterminate absolute inset-y-0 w-1/3 rounded-full bg-accent" />
      ) : (
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      )}
    </div>
  );
}

/**
 * The visible state of an upload: the upload's percentage, then the inking with the SPEC's
 * busy and taking-longer notices (in their own live region), then ready or the failure.
 */
export function UploadProgress({
  state,
  doneText = 'Ready! Opening your manuscript…',
  onProceed,
}: {
  state: UploadFlowState;
  doneText?: string;
  /** Goes on after a held upload (something could not be kept, see the report). */
  onProceed?: () => void;
}) {
  if (state.phase === 'idle') return null;
  const fileName = <span className="font-semibold break-all text-ink">{state.fileName}</span>;

  if (state.phase === 'failed') {
    return (
      <div
        role="alert"
        className="rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger"
        data-upload-state="failed"
      >
        <p className="font-semibold">{state.message}</p>
        <UpgradeLink message={state.message} />
        <p className="mt-1 text-danger/80">File: {state.fileName}</p>
      </div>
    );
  }

  return (
    <div
      className="space-y-3 rounded-xl border border-line bg-page/60 px-4 py-4"
      data-upload-state={state.phase}
    >
      {state.phase === 'uploading' ? (
        <>
          <p className="text-sm text-muted">
            Uploading {fileName} — {Math.round(state.fraction * 100)}%
          </p>
          <Bar fraction={state.fraction} label="Upload progress" />
        </>
      ) : null}
      {state.phase === 'processing' ? (
        <>
          <p className="flex items-center gap-2 text-sm text-muted">
            <InkSpinner />
            <span>Inking {fileName} into a reading page…</span>
          </p>
          <Bar fraction={null} label="Inking progress" />
          {/* Mounted (empty) from the start of the inking, so its notices are announced. */}
          <p
            role="status"
            aria-live="polite"
            className="text-sm font-medium text-ink empty:hidden"
            data-upload-notice
          >
            {state.notice ?? ''}
          </p>
        </>
      ) : null}
      {state.phase === 'done' ? (
        <>
          <p className="flex items-center gap-2 text-sm font-semibold text-success">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d="M8 13.2 4.4 9.6l-1.2 1.2L8 15.6l9-9-1.2-1.2L8 13.2Z" />
            </svg>
            {state.held ? 'Ready. Before you go on, see what could not be kept:' : doneText}
          </p>
          {state.report ? <ConversionReportView report={state.report} /> : null}
          {state.held && onProceed ? (
            <button type="button" className="btn btn-primary" onClick={onProceed}>
              Continue
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/**
 * What a screen reader hears as the upload moves from step to step (that live region stays
 * mounted); the busy and taking-longer notices have their own live region, and a failure
 * is its own role="alert".
 */
export function announcementFor(state: UploadFlowState, doneText: string): string {
  switch (state.phase) {
    case 'uploading':
      return `Uploading ${state.fileName}.`;
    case 'processing':
      return 'Upload complete. Inking your manuscript.';
    case 'done':
      return `Finished. ${doneText}`;
    default:
      return '';
  }
}
