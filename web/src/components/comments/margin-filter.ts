import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { Thread } from './threads.ts';

// The margin's filters (issue 16): by reader, by chapter, mine only, and whether resolved
// comments show (by default they fold away: unresolved only). Kept in the page's URL, so a
// filtered margin can be reloaded, bookmarked and shared.

export interface MarginFilters {
  /** A reader's user id: only threads with a comment of theirs. */
  reader: number | null;
  /** A chapter heading's id: only threads in that chapter. */
  chapter: string | null;
  /** Only threads I highlighted or commented on. */
  mine: boolean;
  /** Show resolved comments too (off: they fold away). */
  showResolved: boolean;
}

const PARAMS = { reader: 'reader', chapter: 'chapter', mine: 'mine', showResolved: 'resolved' };

export function readFilters(search: string): MarginFilters {
  const params = new URLSearchParams(search);
  const reader = Number(params.get(PARAMS.reader));
  return {
    reader: Number.isInteger(reader) && reader > 0 ? reader : null,
    chapter: params.get(PARAMS.chapter) || null,
    mine: params.get(PARAMS.mine) === '1',
    showResolved: params.get(PARAMS.showResolved) === 'show',
  };
}

/** The search string with these filters (other parameters kept). */
export function writeFilters(search: string, filters: MarginFilters): string {
  const params = new URLSearchParams(search);
  const set = (name: string, value: string | null) =>
    value ? params.set(name, value) : params.delete(name);
  set(PARAMS.reader, filters.reader ? String(filters.reader) : null);
  set(PARAMS.chapter, filters.chapter);
  set(PARAMS.mine, filters.mine ? '1' : null);
  set(PARAMS.showResolved, filters.showResolved ? 'show' : null);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};

/** The filters in the URL, and a setter that replaces the URL (no new history entry). */
export function useMarginFilters(): [MarginFilters, (next: MarginFilters) => void] {
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
  const set = useCallback((next: MarginFilters) => {
    const url = `${window.location.pathname}${writeFilters(window.location.search, next)}${window.location.hash}`;
    window.history.replaceState(window.history.state, '', url);
    for (const listener of listeners) listener();
  }, []);
  // The same object while the URL's search stays: the filtered threads are not built anew on
  // every render of the reader (each scrolled frame moves the reading position).
  const filters = useMemo(() => readFilters(search), [search]);
  return [filters, set];
}

/** The headings that start chapters in the reader box (its top heading level). */
export function chapterHeadings(box: HTMLElement | null): HTMLElement[] {
  if (!box) return [];
  for (const level of ['h1', 'h2', 'h3']) {
    const found = [...box.querySelectorAll<HTMLElement>(`:scope > ${level}[id]`)];
    if (found.length > 0) return found;
  }
  return [];
}

/** The chapter heading id a thread's highlight lies in (null before the first heading). */
export function chapterOf(box: HTMLElement | null, headings: HTMLElement[], threadId: string) {
  const mark = box?.querySelector(`mark[data-hl="${CSS.escape(threadId)}"]`);
  if (!mark) return null;
  let found: string | null = null;
  for (const heading of headings) {
    if (heading.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING)
      found = heading.id;
    else break;
  }
  return found;
}

/**
 * The threads the filters let through, each with only its matching comments; a thread with none
 * left goes (the open draft always stays).
 */
export function filterThreads(
  threads: readonly Thread[],
  filters: MarginFilters,
  currentUserId: number | null,
  chapterOfThread: (thread: Thread) => string | null,
): Thread[] {
  return threads.flatMap((thread) => {
    if (thread.draft || thread.comments.length === 0) return [thread];
    if (
      filters.mine &&
      !thread.own &&
      !thread.comments.some((c) => c.author_id === currentUserId)
    ) {
      return [];
    }
    if (filters.chapter && chapterOfThread(thread) !== filters.chapter) return [];
    const comments = thread.comments.filter(
      (comment) =>
        (filters.showResolved || !comment.resolved_at) &&
        (filters.reader === null || comment.author_id === filters.reader),
    );
    return comments.length > 0 ? [{ ...thread, comments }] : [];
  });
}
