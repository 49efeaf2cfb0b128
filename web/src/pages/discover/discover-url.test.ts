import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH, searchFromUrl, searchToUrl } from './discover-url.ts';

describe('the search in the URL', () => {
  it('round-trips a full search', () => {
    const search = {
      q: 'dragon "maren hollow"',
      fs: 'poetry',
      genre_ids: [3, 1],
      page: 4,
      sort: 'newest',
    } as const;
    const url = searchToUrl({ ...search, genre_ids: [...search.genre_ids] });
    expect(url).toBe('?q=dragon+%22maren+hollow%22&fs=poetry&genre_ids=1%2C3&sort=newest&page=4');
    expect(searchFromUrl(url)).toEqual({ ...search, genre_ids: [1, 3] });
  });

  it('leaves defaults out and repairs what is malformed', () => {
    expect(searchToUrl(EMPTY_SEARCH)).toBe('');
    expect(searchFromUrl('?fs=novels&page=-2&sort=best&genre_ids=a,2,,0')).toEqual({
      ...EMPTY_SEARCH,
      genre_ids: [2],
    });
  });
});
