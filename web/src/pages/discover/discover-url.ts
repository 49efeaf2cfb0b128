import { CATEGORIES, DISCOVER_SORTS, type DiscoverSort } from '@margins/common';

/** A search as it lives in the URL (/discover/?q=…&fs=…&genre_ids=1,2&page=…&sort=…). */
export interface DiscoverSearch {
  q: string;
  fs: '' | (typeof CATEGORIES)[number];
  genre_ids: number[];
  page: number;
  sort: DiscoverSort;
}

export const EMPTY_SEARCH: DiscoverSearch = {
  q: '',
  fs: '',
  genre_ids: [],
  page: 1,
  sort: 'relevance',
};

/** The search of a URL's query string; what is missing or malformed takes its default. */
export function searchFromUrl(query: string): DiscoverSearch {
  const params = new URLSearchParams(query);
  const fs = params.get('fs') ?? '';
  const sort = params.get('sort') ?? '';
  const page = Number(params.get('page') ?? '1');
  return {
    q: params.get('q') ?? '',
    fs: (CATEGORIES as readonly string[]).includes(fs) ? (fs as DiscoverSearch['fs']) : '',
    genre_ids: (params.get('genre_ids') ?? '')
      .split(',')
      .map(Number)
      .filter((id) => Number.isInteger(id) && id > 0),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: (DISCOVER_SORTS as readonly string[]).includes(sort)
      ? (sort as DiscoverSort)
      : 'relevance',
  };
}

/** The query string of a search, leaving out what is at its default (short, shareable). */
export function searchToUrl(search: DiscoverSearch): string {
  const params = new URLSearchParams();
  if (search.q) params.set('q', search.q);
  if (search.fs) params.set('fs', search.fs);
  if (search.genre_ids.length > 0)
    params.set('genre_ids', [...search.genre_ids].sort((a, b) => a - b).join(','));
  if (search.sort !== 'relevance') params.set('sort', search.sort);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `?${query}` : '';
}
