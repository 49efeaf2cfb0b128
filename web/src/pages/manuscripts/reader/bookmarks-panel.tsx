import type { PageBookmark } from './page-bookmarks.ts';

/**
 * The page-bookmark list: "Bookmark this spot" at the current block, the automatic
 * reading-position entry, jump and remove.
 */
export function BookmarksPanel({
  bookmarks,
  canAdd,
  onAdd,
  onJump,
  onRemove,
}: {
  bookmarks: PageBookmark[];
  canAdd: boolean;
  onAdd: () => void;
  onJump: (bookmark: PageBookmark) => void;
  onRemove: (bookmark: PageBookmark) => void;
}) {
  return (
    <section aria-labelledby="page-bookmarks-heading" data-page-bookmarks>
      <h2 id="page-bookmarks-heading" className="eyebrow mb-3">
        Bookmarks
      </h2>
      {bookmarks.length === 0 ? (
        <p className="text-sm text-muted">
          Mark a place to come back to. Your reading position is kept here too.
        </p>
      ) : (
        <ul className="space-y-1">
          {bookmarks.map((bookmark) => {
            const label = bookmark.auto ? 'Where you left off' : `Bookmark`;
            return (
              <li
                key={`${bookmark.auto ? 'auto' : 'set'}-${bookmark.idx}`}
                className="group flex items-stretch gap-1"
                data-bookmark-idx={bookmark.idx}
                data-auto={bookmark.auto || undefined}
              >
                <button
                  type="button"
                  onClick={() => onJump(bookmark)}
                  className="flex min-w-0 flex-1 cursor-pointer items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-sunken"
                >
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className={`mt-0.5 size-3.5 shrink-0 fill-current ${bookmark.auto ? 'text-muted' : 'text-accent'}`}
                  >
                    {bookmark.auto ? (
                      <path d="M10 2.5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15Zm.75 3.5v3.7l2.9 2.9-1.05 1.05-3.35-3.35V6h1.5Z" />
                    ) : (
                      <path d="M5 2.5h10A1.5 1.5 0 0 1 16.5 4v14l-6.5-4-6.5 4V4A1.5 1.5 0 0 1 5 2.5Z" />
                    )}
                  </svg>
                  <span className="min-w-0">
                    <span className="block text-xs font-semibold text-muted">{label}</span>
                    <span className="block truncate font-serif text-ink">{bookmark.text}…</span>
                  </span>
                </button>
                <button
                  type="button"
                  onClick={() => onRemove(bookmark)}
                  aria-label={`Remove ${bookmark.auto ? 'reading position' : 'bookmark'} “${bookmark.text}”`}
                  className="cursor-pointer rounded-md px-2 text-muted opacity-70 hover:bg-sunken hover:text-danger group-hover:opacity-100 focus-visible:opacity-100"
                >
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current">
                    <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7 1.1-1.1Z" />
                  </svg>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <button
        type="button"
        onClick={onAdd}
        disabled={!canAdd}
        className="mt-3 inline-flex w-full cursor-pointer items-center justify-center gap-1.5 rounded-lg border border-dashed border-line px-3 py-2 text-sm font-semibold text-ink transition-colors hover:border-accent hover:bg-surface disabled:cursor-not-allowed disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current text-accent">
          <path d="M5 2.5h10A1.5 1.5 0 0 1 16.5 4v14l-6.5-4-6.5 4V4A1.5 1.5 0 0 1 5 2.5Z" />
        </svg>
        Bookmark this spot
      </button>
    </section>
  );
}
