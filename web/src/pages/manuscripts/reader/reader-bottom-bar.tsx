// The reader's bottom bar on phones and tablets: contents, progress, comments, bookmark.
import type { ReactNode } from 'react';
import { CommentsButton } from '../../../components/comments/index.ts';

/** Phones and tablets: the reader's bar that stays at the bottom while the text is in view. */
export function ReaderBottomBar({
  sectionTitle,
  percentRead,
  onOpenContents,
  onAddBookmark,
}: {
  sectionTitle: string | null;
  /** Whole percents read (a part that follows the reading position itself). */
  percentRead: ReactNode;
  onOpenContents: () => void;
  onAddBookmark: () => void;
}) {
  return (
    <div className="sticky inset-x-0 bottom-0 z-30 border-t border-line bg-page/92 px-3 py-2 backdrop-blur lg:hidden">
      <div className="mx-auto flex max-w-xl items-center gap-2">
        <button
          type="button"
          className="btn btn-secondary min-w-0 flex-1 justify-start"
          onClick={onOpenContents}
          aria-haspopup="dialog"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-current">
            <path d="M3 5h14v1.6H3V5Zm0 4.2h14v1.6H3V9.2Zm0 4.2h9V15H3v-1.6Z" />
          </svg>
          <span className="shrink-0">Contents</span>
          {sectionTitle ? (
            <span className="truncate font-normal text-muted">· {sectionTitle}</span>
          ) : null}
        </button>
        <span className="w-10 text-right text-xs text-muted tabular-nums" aria-hidden="true">
          {percentRead}%
        </span>
        <CommentsButton />
        <button
          type="button"
          className="btn btn-secondary px-3"
          onClick={onAddBookmark}
          aria-label="Bookmark this spot"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current text-accent">
            <path d="M5 2.5h10A1.5 1.5 0 0 1 16.5 4v14l-6.5-4-6.5 4V4A1.5 1.5 0 0 1 5 2.5Z" />
          </svg>
        </button>
      </div>
    </div>
  );
}
