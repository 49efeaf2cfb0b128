import { beforeEach, describe, expect, it } from 'vitest';
import {
  bookmarkKey,
  bookmarkText,
  loadBookmarks,
  saveBookmarks,
  withAutoBookmark,
  withBookmark,
  withoutBookmark,
} from './page-bookmarks.ts';

describe('page bookmarks', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the first 20 characters of the block, spaces collapsed', () => {
    expect(bookmarkText('  The fog came in\n before the boats did.')).toBe('The fog came in befo');
    expect(bookmarkText('Short')).toBe('Short');
    // Characters, not UTF-16 units: an emoji counts once and is never cut in half.
    expect(bookmarkText('🌊'.repeat(25))).toBe('🌊'.repeat(20));
  });

  it('is stored per user and manuscript', () => {
    expect(bookmarkKey(7, 42)).toBe('margins-bookmarks:7:42');
    expect(bookmarkKey(null, 42)).toBe('margins-bookmarks:guest:42');
    saveBookmarks(bookmarkKey(7, 42), [{ idx: 3, text: 'Chapter One', auto: false }]);
    expect(loadBookmarks(bookmarkKey(7, 42))).toEqual([
      { idx: 3, text: 'Chapter One', auto: false },
    ]);
    expect(loadBookmarks(bookmarkKey(8, 42))).toEqual([]);
    expect(loadBookmarks(bookmarkKey(7, 43))).toEqual([]);
    expect(JSON.parse(localStorage.getItem('margins-bookmarks:7:42') ?? '')).toEqual([
      { idx: 3, text: 'Chapter One', auto: false },
    ]);
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem('k', '{not json');
    expect(loadBookmarks('k')).toEqual([]);
    localStorage.setItem('k', JSON.stringify([{ idx: 'x' }, { idx: 2, text: 'ok', auto: true }]));
    expect(loadBookmarks('k')).toEqual([{ idx: 2, text: 'ok', auto: true }]);
  });

  it('adds one bookmark per block, in reading order', () => {
    let list = withBookmark([], 9, 'Later in the story of the lamps');
    list = withBookmark(list, 2, 'Earlier');
    list = withBookmark(list, 9, 'Again');
    expect(list).toEqual([
      { idx: 2, text: 'Earlier', auto: false },
      { idx: 9, text: 'Later in the story o', auto: false },
    ]);
  });

  it('keeps a single automatic entry, replaced as the reader moves', () => {
    let list = withBookmark([], 4, 'Set by hand');
    list = withAutoBookmark(list, 10, 'Reading here now and more');
    expect(list.filter((bookmark) => bookmark.auto)).toEqual([
      { idx: 10, text: 'Reading here now and', auto: true },
    ]);
    list = withAutoBookmark(list, 12, 'Further on');
    expect(list).toEqual([
      { idx: 4, text: 'Set by hand', auto: false },
      { idx: 12, text: 'Further on', auto: true },
    ]);
    // The automatic entry can sit on a block that also has a hand-set bookmark.
    list = withAutoBookmark(list, 4, 'Set by hand');
    expect(list).toEqual([
      { idx: 4, text: 'Set by hand', auto: false },
      { idx: 4, text: 'Set by hand', auto: true },
    ]);
    expect(withoutBookmark(list, { idx: 4, text: 'Set by hand', auto: true })).toEqual([
      { idx: 4, text: 'Set by hand', auto: false },
    ]);
  });
});
