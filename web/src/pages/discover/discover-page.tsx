import { useEffect, useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  CATEGORIES,
  discoverResponse,
  genreCategory,
  SEARCH_DEBOUNCE_MS,
  type DiscoverResponse,
  type GenreCategory,
} from '@margins/common';
import { api, errorMessage } from '../../api/client.ts';
import { CATEGORY_LABELS, categoryLabel } from '../../api/manuscripts.ts';
import { ManuscriptCard } from '../../components/manuscripts/manuscript-card.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { usePageConfig } from '../../page-config.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { DiscoverPager } from './discover-pager.tsx';
import { Snippet } from './snippet.tsx';
import { EMPTY_SEARCH, searchFromUrl, searchToUrl, type DiscoverSearch } from './discover-url.ts';
import { formatCount } from '../../lib/numbers.ts';

const pageData = z.object({
  results: discoverResponse.nullable().optional(),
  genres: z.array(genreCategory).optional(),
  error: z.string().nullable().optional(),
});

const SORT_LABELS: Record<DiscoverSearch['sort'], string> = {
  relevance: 'Best match',
  newest: 'Newest',
  most_read: 'Most read',
  most_commented: 'Most commented',
};

/** The search the page was served with (its results came with it). */
function useServedSearch() {
  const { data } = usePageConfig();
  const [served] = useState(() => {
    const parsed = pageData.safeParse(data);
    const value = parsed.success ? parsed.data : {};
    return {
      key: typeof window === 'undefined' ? '' : searchToUrl(searchFromUrl(window.location.search)),
      results: value.results ?? undefined,
      genres: value.genres ?? [],
      error: value.error ?? null,
    };
  });
  return served;
}

/**
 * Discover (/discover/): search public manuscripts as you type (300 ms), filter by category
 * and genres, sort, page. The search lives in the URL, so it can be shared, reloaded and
 * walked with Back and Forward; the page's first results come with the page.
 */
export function DiscoverPage() {
  const served = useServedSearch();
  const location = useLocation();
  const navigate = useNavigate();
  const search = searchFromUrl(location.search);
  const key = searchToUrl(search);
  const [text, setText] = useState(search.q);
  const typing = useRef(false);
  useDocumentTitle(search.q ? `“${search.q}” · Discover` : 'Discover');

  const results = useQuery({
    queryKey: ['discover', key],
    queryFn: async () => discoverResponse.parse(await api.post('/discover/', search)),
    initialData: key === served.key ? served.results : undefined,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

  const go = (next: Partial<DiscoverSearch>, { replace = false } = {}) => {
    const merged = { ...search, page: 1, ...next };
    navigate(`${location.pathname}${searchToUrl(merged)}`, { replace });
  };

  // Typing searches after a pause; Back and Forward put the URL's words back in the box.
  useEffect(() => {
    if (!typing.current) return;
    const timer = window.setTimeout(() => {
      typing.current = false;
      if (text.trim() !== search.q) go({ q: text.trim() });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the typed text restarts it
  }, [text]);
  useEffect(() => {
    if (!typing.current) setText(search.q);
  }, [search.q]);

  const data = results.data;
  const loading = results.isFetching;
  const hasFilters = search.q !== '' || search.fs !== '' || search.genre_ids.length > 0;

  return (
    <PageContainer width="wide">
      <PageHeading
        eyebrow="Discover"
        title="Find your next manuscript to beta-read"
        lead="Search titles, summaries, authors, genres and the opening pages of every manuscript open to you."
      />
      <form
        role="search"
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          typing.current = false;
          go({ q: text.trim() });
        }}
      >
        <SearchBox
          value={text}
          onChange={(value) => {
            typing.current = true;
            setText(value);
          }}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn btn-primary">
            Search
          </button>
          {hasFilters ? (
            <button
              type="button"
              className="btn btn-secondary"
              data-testid="clear-search"
              onClick={() => {
                typing.current = false;
                setText('');
                go({ q: '', fs: '', genre_ids: [] });
              }}
            >
              Clear search
            </button>
          ) : null}
        </div>
      </form>
      {served.error ? (
        <p className="mt-3 text-sm text-danger" role="alert">
          {served.error}
        </p>
      ) : null}

      <div className="mt-8 grid gap-8 lg:grid-cols-[15rem_1fr]">
        <Filters
          search={search}
          data={data}
          genres={served.genres}
          onCategory={(fs) => go({ fs })}
          onGenres={(genre_ids) => go({ genre_ids })}
        />
        <section aria-labelledby="results-heading" aria-busy={loading}>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="results-heading" className="text-lg font-semibold" aria-live="polite">
              {data ? resultCount(data.total, search.q, data.total_capped) : 'Searching…'}
              {loading && data ? (
                <span className="ml-2 text-sm font-normal text-muted">Searching…</span>
              ) : null}
            </h2>
            <SortControl
              value={search.sort}
              onChange={(sort) => go({ sort })}
              hasText={!!search.q}
            />
          </div>
          {results.isError && !data ? (
            <p className="card p-6 text-danger" role="alert">
              {errorMessage(results.error)}
            </p>
          ) : null}
          {data && data.total === 0 ? (
            <EmptyState query={search.q} filtered={hasFilters} onClear={() => go(EMPTY_SEARCH)} />
          ) : null}
          {data && data.total > 0 ? (
            <>
              <ul
                className={`grid gap-x-6 gap-y-9 pt-3 sm:grid-cols-2 xl:grid-cols-3 ${loading ? 'opacity-60' : ''}`}
                data-testid="discover-results"
              >
                {data.page.items.map((item, index) => (
                  <li key={item.id} className="flex flex-col gap-2">
                    <ManuscriptCard manuscript={item} index={index} />
                    <Snippet parts={item.snippet} />
                  </li>
                ))}
              </ul>
              <DiscoverPager
                page={data.page}
                hrefFor={(page) => `${location.pathname}${searchToUrl({ ...search, page })}`}
                onPage={(page) => {
                  go({ page });
                  window.scrollTo({ top: 0 });
                }}
              />
            </>
          ) : null}
        </section>
      </div>
    </PageContainer>
  );
}

/** "600+": a broad search counts only the matches it ranks (DISCOVER_RESULT_CAP). */
function resultCount(total: number, query: string, capped = false): string {
  const noun = total === 1 ? 'manuscript' : 'manuscripts';
  const count = `${formatCount(total)}${capped ? '+' : ''}`;
  return query ? `${count} ${noun} for “${query}”` : `${count} ${noun}`;
}

function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex-1">
      <label htmlFor={id} className="field-label">
        Search
      </label>
      <input
        id={id}
        name="q"
        type="search"
        className="field-input"
        value={value}
        maxLength={200}
        autoComplete="off"
        placeholder='Title, author, genre — "a phrase", -without'
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

function SortControl({
  value,
  onChange,
  hasText,
}: {
  value: DiscoverSearch['sort'];
  onChange: (sort: DiscoverSearch['sort']) => void;
  hasText: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-muted">
        Sort by
      </label>
      <select
        id={id}
        className="field-input w-auto py-1.5"
        value={value}
        onChange={(event) => onChange(event.target.value as DiscoverSearch['sort'])}
      >
        {(Object.keys(SORT_LABELS) as Array<DiscoverSearch['sort']>).map((sort) => (
          <option key={sort} value={sort}>
            {sort === 'relevance' && !hasText ? 'Newest (no search words)' : SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}

function Filters({
  search,
  data,
  genres,
  onCategory,
  onGenres,
}: {
  search: DiscoverSearch;
  data: DiscoverResponse | undefined;
  genres: GenreCategory[];
  onCategory: (fs: DiscoverSearch['fs']) => void;
  onGenres: (ids: number[]) => void;
}) {
  const categoryId = useId();
  const categoryCount = new Map(data?.facets.categories.map((c) => [c.category, c.count]));
  const genreCount = new Map(data?.facets.genres.map((g) => [g.id, g.count]));
  // The genres just clicked, until the URL has them: the address changes in a transition, and
  // a controlled checkbox would meanwhile snap back to the URL's state, unticked for a moment.
  const [clicked, setClicked] = useState<{ from: string; ids: number[] } | null>(null);
  const urlGenres = search.genre_ids.join(',');
  const selected = new Set(clicked?.from === urlGenres ? clicked.ids : search.genre_ids);
  // Once the URL has moved (the click landed, or Back and Forward), it alone says again.
  useEffect(() => setClicked(null), [urlGenres]);
  const [wideScreen] = useState(
    () => typeof window !== 'undefined' && window.matchMedia?.('(min-width: 1024px)').matches,
  );
  return (
    <aside aria-label="Filters" className="flex flex-col gap-6">
      <div>
        <label htmlFor={categoryId} className="field-label">
          Category
        </label>
        <select
          id={categoryId}
          name="fs"
          className="field-input"
          value={search.fs}
          onChange={(event) => onCategory(event.target.value as DiscoverSearch['fs'])}
        >
          <option value="">All categories</option>
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {CATEGORY_LABELS[category]} ({categoryCount.get(category) ?? 0})
            </option>
          ))}
        </select>
      </div>
      {/* Folded on phones, so the results come first; open beside them on wide screens. */}
      <details open={wideScreen} className="group">
        <summary className="field-label cursor-pointer">
          Genres{selected.size > 0 ? ` (${selected.size} chosen)` : ''}
        </summary>
        <div className="mt-3 flex flex-col gap-6">
          {genres.map((group) => (
            <fieldset key={group.category}>
              <legend className="field-label">{categoryLabel(group.category)}</legend>
              <ul className="flex flex-col gap-1.5">
                {group.genres.map((genre) => (
                  <li key={genre.genre_id}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="genre_ids"
                        value={genre.genre_id}
                        checked={selected.has(genre.genre_id)}
                        onChange={(event) => {
                          const next = new Set(selected);
                          if (event.target.checked) next.add(genre.genre_id);
                          else next.delete(genre.genre_id);
                          setClicked({ from: urlGenres, ids: [...next] });
                          onGenres([...next]);
                        }}
                      />
                      <span>{genre.name}</span>
                      <span className="ml-auto text-xs text-muted">
                        {genreCount.get(genre.genre_id) ?? 0}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
      </details>
    </aside>
  );
}

function EmptyState({
  query,
  filtered,
  onClear,
}: {
  query: string;
  filtered: boolean;
  onClear: () => void;
}) {
  return (
    <div className="card p-8 text-center" data-testid="discover-empty">
      <h3 className="font-serif text-xl font-semibold">
        {query ? `Nothing matches “${query}” yet` : 'No manuscripts here yet'}
      </h3>
      <ul className="mx-auto mt-4 max-w-md list-disc space-y-1 text-left text-muted">
        <li>Try fewer or more general words, or an author's name.</li>
        <li>
          Put a phrase in quotes to find it exactly; leave them out to find the words anywhere.
        </li>
        {filtered ? <li>Remove a category or genre filter.</li> : null}
      </ul>
      {filtered ? (
        <button type="button" className="btn btn-secondary mt-6" onClick={onClear}>
          Show every manuscript
        </button>
      ) : null}
    </div>
  );
}
