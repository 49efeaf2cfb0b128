import { memo, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CloseButton } from '../dialog.tsx';
import { CommentThread } from './comment-thread.tsx';
import { useComments } from './comments-context.tsx';
import { scrollToMark } from './margin-column.tsx';
import { isWithheldThread } from './threads.ts';

/** Threads listed at a time in the drawer ("Show more" adds as many again). */
const PAGE_SIZE = 25;

/** "1 comment", "12 comments". */
function commentsLabel(count: number): string {
  return `${count} ${count === 1 ? 'comment' : 'comments'}`;
}

/** The "N comments" button that opens the drawer (phones and tablets). */
export const CommentsButton = memo(function CommentsButton({
  className = '',
}: {
  className?: string;
}) {
  const { commentCount, openDrawer, drawer } = useComments();
  return (
    <button
      type="button"
      className={`btn btn-secondary px-3 ${className}`}
      onClick={() => openDrawer(null)}
      aria-haspopup="dialog"
      aria-expanded={drawer.open}
      data-testid="comments-button"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="size-4 shrink-0 fill-current text-accent"
      >
        <path d="M4 3.5h12A1.5 1.5 0 0 1 17.5 5v8a1.5 1.5 0 0 1-1.5 1.5H9.2L5.5 17.6V14.5H4A1.5 1.5 0 0 1 2.5 13V5A1.5 1.5 0 0 1 4 3.5Z" />
      </svg>
      {commentsLabel(commentCount)}
    </button>
  );
});

/**
 * Phones and tablets: the comments in a sheet from the bottom of the window. Non-modal, so the
 * text above stays readable and a tap on another highlight switches the thread. Opened on one
 * thread (a tapped highlight, a new comment) it shows that one, with a way back to all.
 */
export const CommentsDrawer = memo(function CommentsDrawer() {
  const { drawer, closeDrawer, openDrawer, threads, orphans, commentCount, isWide, firstMark } =
    useComments();
  const panelRef = useRef<HTMLDivElement>(null);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const open = drawer.open && !isWide;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    if (panel && !panel.contains(document.activeElement)) panel.focus({ preventScroll: true });
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) closeDrawer();
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [open, closeDrawer]);

  if (!open) return null;
  const focused = drawer.threadId
    ? (threads.find((thread) => thread.id === drawer.threadId) ??
      orphans.find((thread) => thread.id === drawer.threadId) ??
      null)
    : null;
  const listed = threads.filter((thread) => thread.comments.length > 0 || thread.draft);

  return createPortal(
    <div
      ref={panelRef}
      role="dialog"
      aria-modal="false"
      aria-label="Comments"
      tabIndex={-1}
      className="fixed inset-x-0 bottom-0 z-40 flex max-h-[72dvh] flex-col rounded-t-2xl border-t border-line bg-surface shadow-lift focus:outline-none"
      data-testid="comments-drawer"
    >
      <div className="mx-auto mt-2 h-1 w-10 rounded-full bg-line" aria-hidden="true" />
      <div className="flex items-center gap-2 border-b border-line px-4 pt-1 pb-2">
        {focused ? (
          <button
            type="button"
            className="btn btn-ghost min-h-9 px-2 text-sm"
            onClick={() => openDrawer(null)}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d="M12.6 4.4 7 10l5.6 5.6-1.1 1.1L4.8 10l6.7-6.7 1.1 1.1Z" />
            </svg>
            All {commentsLabel(commentCount)}
          </button>
        ) : (
          <h2 className="px-1 font-serif text-lg font-semibold">{commentsLabel(commentCount)}</h2>
        )}
        <span className="ml-auto" />
        <CloseButton onClick={closeDrawer} label="Close comments" />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4">
        {focused ? (
          <CommentThread thread={focused} showQuote />
        ) : listed.length === 0 && orphans.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted">
            No comments yet. Select a passage and tap <strong>Comment</strong> to leave the first.
          </p>
        ) : (
          <div className="space-y-3">
            {listed.slice(0, limit).map((thread) => (
              <div key={thread.id}>
                <button
                  type="button"
                  className="mb-1 cursor-pointer text-xs font-medium text-accent"
                  onClick={() => {
                    closeDrawer();
                    scrollToMark(firstMark(thread.id));
                  }}
                >
                  Show in the text
                </button>
                <CommentThread thread={thread} showQuote />
              </div>
            ))}
            {listed.length > limit ? (
              <button
                type="button"
                className="btn btn-secondary w-full"
                onClick={() => setLimit((current) => current + PAGE_SIZE)}
              >
                Show more ({listed.length - limit} left)
              </button>
            ) : null}
            {[
              { title: 'Unplaced notes', threads: orphans.filter((t) => !isWithheldThread(t)) },
              { title: 'Private comments', threads: orphans.filter(isWithheldThread) },
            ].map(({ title, threads: group }) =>
              group.length > 0 ? (
                <div key={title} className="space-y-3">
                  <h3 className="eyebrow pt-3">{title}</h3>
                  {group.map((thread) => (
                    <CommentThread key={thread.id} thread={thread} showQuote />
                  ))}
                </div>
              ) : null,
            )}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
});
