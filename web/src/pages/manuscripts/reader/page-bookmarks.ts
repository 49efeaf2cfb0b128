import { useCallback, useEffect, useState } from 'react';
import { PAGE_BOOKMARK_TEXT_LENGTH } from '@margins/common';

/** A page bookmark (SPEC §3), kept in this browser per user and manuscript. */
export interface PageBookmark {
  /** Which block of the text: its position among the reader box's children. */
  idx: number;
  /** The first 20 characters of that block. */
  text: string;
  /** True for the one bookmark that follows the reading position. */
  auto: boolean;
}

/** The localStorage key of one user's bookmarks in one manuscript. */
export function bookmarkKey(userId: number | null, manuscriptId: number): string {
  return `margins-bookmarks:${userId ?? 'guest'}:${manuscriptId}`;
}

/** The first 20 characters (not UTF-16 units) of a block's text, spaces collapsed. */
export function bookmarkText(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return Array.from(collapsed).slice(0, PAGE_BOOKMARK_TEXT_LENGTH).join('');
}

function isBookmark(value: unknown): value is PageBookmark {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.idx === 'number' &&
    Number.isInteger(entry.idx) &&
    entry.idx >= 0 &&
    typeof entry.text === 'string' &&
    typeof entry.auto === 'boolean'
  );
}

/** The saved bookmarks under a key; [] when there are none or they cannot be read. */
export function loadBookmarks(key: string, storage: Storage = window.localStorage): PageBookmark[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isBookmark) : [];
  } catch {
    return [];
  }
}

/** Saves the bookmarks under a key (nothing at all when there are none). */
export function saveBookmarks(
  key: string,
  bookmarks: PageBookmark[],
  storage: Storage = window.localStorage,
): void {
  try {
    if (bookmarks.length === 0) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(bookmarks));
  } catch {
    // Storage full or blocked: the bookmarks last for this visit.
  }
}

const byPosition = (a: PageBookmark, b: PageBookmark) =>
  a.idx - b.idx || Number(a.auto) - Number(b.auto);

/** The list with a bookmark the reader set at a block (one per block). */
export function withBookmark(list: PageBookmark[], idx: number, text: string): PageBookmark[] {
  if (list.some((bookmark) => !bookmark.auto && bookmark.idx === idx)) return list;
  return [...list, { idx, text: bookmarkText(text), auto: false }].sort(byPosition);
}

/** The list with the reading position at a block, replacing the previous one. */
export function withAutoBookmark(list: PageBookmark[], idx: number, text: string): PageBookmark[] {
  const current = list.find((bookmark) => bookmark.auto);
  if (current?.idx === idx) return list;
  return [
    ...list.filter((bookmark) => !bookmark.auto),
    { idx, text: bookmarkText(text), auto: true },
  ].sort(byPosition);
}

/** The list without one bookmark. */
export function withoutBookmark(list: PageBookmark[], removed: PageBookmark): PageBookmark[] {
  return list.filter(
    (bookmark) => !(bookmark.idx === removed.idx && bookmark.auto === removed.auto),
  );
}

/** The page bookmarks of a key as state, saved on every change and in step with other tabs. */
export function usePageBookmarks(key: string) {
  const [bookmarks, setBookmarks] = useState<PageBookmark[]>(() => loadBookmarks(key));

  useEffect(() => {
    setBookmarks(loadBookmarks(key));
    const handleStorage = (event: StorageEvent) => {
      if (event.key === key) setBookmarks(loadBookmarks(key));
    };
    window.addEventListener('storage', handleStorage);
    return () => window.removeEventListener('storage', handleStorage);
  }, [key]);

  const update = useCallback(
    (change: (list: PageBookmark[]) => PageBookmark[]) =>
      setBookmarks((current) => {
        const next = change(current);
        if (next !== current) saveBookmarks(key, next);
        return next;
      }),
    [key],
  );

  return {
    bookmarks,
    add: useCallback(
      (idx: number, text: string) => update((list) => withBookmark(list, idx, text)),
      [update],
    ),
    track: useCallback(
      (idx: number, text: string) => update((list) => withAutoBookmark(list, idx, text)),
      [update],
    ),
    remove: useCallback(
      (bookmark: PageBookmark) => update((list) => withoutBookmark(list, bookmark)),
      [update],
    ),
  };
}
