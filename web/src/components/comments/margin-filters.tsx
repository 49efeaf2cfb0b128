import { useMemo } from 'react';
import { chapterHeadings, useMarginFilters } from './margin-filter.ts';
import { useOptionalComments } from './comments-context.tsx';

/** The margin's filter bar: reader, chapter, mine only, show resolved (kept in the URL). */
export function MarginFiltersBar() {
  const comments = useOptionalComments();
  const [filters, setFilters] = useMarginFilters();
  const allThreads = comments?.allThreads;
  const readers = useMemo(() => {
    const byId = new Map<number, string>();
    for (const thread of allThreads ?? []) {
      for (const comment of thread.comments)
        byId.set(comment.author_id, comment.author.display_name);
    }
    return [...byId].sort((a, b) => a[1].localeCompare(b[1]));
  }, [allThreads]);
  const chapters = chapterHeadings(comments?.boxRef.current ?? null);
  if (!comments?.enabled) return null;
  const control = 'rounded-md border border-line bg-surface px-2 py-1 text-xs text-ink';
  return (
    <div
      className="mt-3 flex flex-wrap items-center justify-center gap-2 text-xs text-muted"
      role="group"
      aria-label="Filter the comments"
      data-margin-filters
    >
      <select
        className={control}
        aria-label="Reader"
        value={filters.reader ?? ''}
        onChange={(event) =>
          setFilters({ ...filters, reader: event.target.value ? Number(event.target.value) : null })
        }
      >
        <option value="">Every reader</option>
        {readers.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
      {chapters.length > 0 ? (
        <select
          className={control}
          aria-label="Chapter"
          value={filters.chapter ?? ''}
          onChange={(event) => setFilters({ ...filters, chapter: event.target.value || null })}
        >
          <option value="">Every chapter</option>
          {chapters.map((heading) => (
            <option key={heading.id} value={heading.id}>
              {heading.textContent?.slice(0, 60)}
            </option>
          ))}
        </select>
      ) : null}
      {comments.currentUserId !== null ? (
        <label className="inline-flex items-center gap-1">
          <input
            type="checkbox"
            checked={filters.mine}
            onChange={(event) => setFilters({ ...filters, mine: event.target.checked })}
          />
          Mine only
        </label>
      ) : null}
      <label className="inline-flex items-center gap-1">
        <input
          type="checkbox"
          checked={filters.showResolved}
          onChange={(event) => setFilters({ ...filters, showResolved: event.target.checked })}
          data-show-resolved
        />
        Show resolved
      </label>
    </div>
  );
}
