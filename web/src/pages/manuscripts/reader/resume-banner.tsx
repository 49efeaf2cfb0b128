// The offer to go back to where the reader left off (their automatic bookmark).
import type { PageBookmark } from './page-bookmarks.ts';

/** "You were reading …": continue from the automatic bookmark, or dismiss the offer. */
export function ResumeBanner({
  resumeFrom,
  onContinue,
  onDismiss,
}: {
  resumeFrom: PageBookmark;
  onContinue: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="mx-auto mb-8 flex max-w-[65ch] flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm shadow-card">
      <span className="text-muted">
        You were reading “<span className="font-serif text-ink">{resumeFrom.text}…</span>”
      </span>
      <span className="flex gap-2">
        <button type="button" className="btn btn-primary min-h-9 px-4" onClick={onContinue}>
          Continue reading
        </button>
        <button type="button" className="btn btn-ghost min-h-9 px-3" onClick={onDismiss}>
          Dismiss
        </button>
      </span>
    </div>
  );
}
