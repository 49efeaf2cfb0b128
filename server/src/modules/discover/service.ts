import { sql, type SQL } from 'drizzle-orm';
import {
  DISCOVER_PAGE_SIZE,
  DISCOVER_RESULT_CAP,
  pageInfoFor,
  type DiscoverRequest,
  type DiscoverResponse,
} from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { runWithSettings } from '../../db/prepared.ts';
import { presentManyById } from '../manuscripts/queries.ts';
import { CANDIDATE_SIMILARITY, searchQueryCte } from './corrections.ts';
import { browse } from './browse.ts';
import { KeptCounts } from './kept-counts.ts';
import { discoverable, filters, orderBy, type SearchRow } from './search-sql.ts';
import { parseSnippet, SNIPPET_START, SNIPPET_STOP } from './snippet.ts';

/**
 * How close a misspelt word must come to a word of a title or an author's name to count as
 * a match (pg_trgm word similarity: "dargon" ~ "dragon" is 0.43).
 */
const TYPO_SIMILARITY = 0.4;
/**
 * The same for several words: "quiet harbour" is 0.45 like every title with "quiet" in it;
 * several words must mostly be there.
 */
const PHRASE_SIMILARITY = 0.6;
/**
 * What a search is planned and run with. The planner prices @@ and <% per row as cheap; they
 * are not (each reads a row's whole search document): with seq scans off it reads only the
 * matches, by the indexes. Off, seq scans cost 10^10 in the plan, which then passes
 * PostgreSQL's JIT threshold: compiling took seconds for a statement that runs in
 * milliseconds, so JIT is off too, and parallel workers (starting them took 50 ms here, more
 * than the whole search). The trigram thresholds: a correction's candidates
 * (searchQueryCte()), and how near one word must come to a title or a name (several words:
 * PHRASE_SIMILARITY, checked in the statement).
 */
const SEARCH_SETTINGS = {
  enable_seqscan: 'off',
  jit: 'off',
  max_parallel_workers_per_gather: '0',
  'pg_trgm.similarity_threshold': String(CANDIDATE_SIMILARITY),
  'pg_trgm.word_similarity_threshold': String(TYPO_SIMILARITY),
};
/** A filtered search's facets (its words' alone), for the next filtered search with its words. */
const keptFacets = new KeptCounts<Pick<SearchRow, 'categories' | 'genres' | 'facet_capped'>>(
  'discover_facets',
);
/** What each way of matching reads of a match: all that ranking, sorting and counting need. */
const TIER_COLUMNS = [
  'manuscript_id',
  'head',
  'title_key',
  'author_key',
  'category',
  'genre_ids',
  'created_at',
  'read_count',
  'comment_count',
];
/** What a match in the text alone adds to the rank: ts_rank's value of one word of weight D. */
const TEXT_MATCH_RANK = 0.06;
/** How many characters of the opening ts_headline is given, around the first match. */
const SNIPPET_WINDOW = 600;
/**
 * One search, in one statement on the search table (migration 0005): the matches the viewer
 * may see, their count, the facet counts and one page of them in the chosen order. The
 * words go through websearch_to_tsquery ("quoted phrases", OR, -exclusions; it never fails
 * on syntax), titles and author names also by trigram similarity so a misspelling still finds
 * them; accents are folded on both sides. Values are bound parameters, never SQL text.
 */
export async function search(
  db: Db,
  viewer: UserRow | null,
  request: DiscoverRequest,
): Promise<DiscoverResponse> {
  const hasText = request.q !== '';
  // The text query (with its corrections) is computed once, first, in the statement (CTE
  // search_query): the indexes are read with it as a parameter.
  const tsQuery = sql`(select q from search_query)`;
  // A quoted phrase: its words, each anywhere, find the candidates (not when a phrase is
  // excluded: without it, "-" would exclude more than the phrase).
  const phrased = /"[^"]*\s[^"]*"/.test(request.q) && !/-\s*"/.test(request.q);
  const wordsOf = sql`regexp_replace(${tsQuery}::text, '<(-|[0-9]+)>', '&', 'g')::tsquery`;
  const key = sql`(select key from search_query)`;
  // Ranked by the head of the document (title, summary, author, genres: kept in the row), not
  // the whole of it (read from the TOAST table: ranking a thousand candidates by it took most
  // of a search's time); a match in the text (a title's words are in it) counts as ts_rank
  // counts one word of weight D. How like the words a title is counts for the matches found
  // by a title (`named`), how like them an author's name is for those found by a name: the
  // others' titles and names do not hold the words (trigram comparisons cost 2–3 µs each,
  // most of the ranking's cost).
  const rank = hasText
    ? sql`ts_rank(s.head, ${tsQuery})
        + case when s.manuscript_id in (select manuscript_id from page_doc
              union all select manuscript_id from page_title_words)
            then ${TEXT_MATCH_RANK}::real else 0 end
        + case when s.named then word_similarity(${key}, s.title_key) * 0.8 else 0 end
        + case when s.manuscript_id in (select manuscript_id from page_author)
            then word_similarity(${key}, s.author_key) * 0.4 else 0 end`
    : sql`0`;
  const wantedOffset = (request.page - 1) * DISCOVER_PAGE_SIZE;
  // ts_headline parses all the text it is given (2,000 words: most of a search's time): it is
  // given SNIPPET_WINDOW characters around the first place a searched word's stem appears in
  // the opening (stems are mostly the words' beginnings), or the opening's start.
  const window = sql`(
    select substr(s2.opening, greatest(1, coalesce(min(nullif(strpos(lower(s2.opening), hit[1]), 0)), 1)
                                          - ${SNIPPET_WINDOW / 2}), ${SNIPPET_WINDOW})
    from regexp_matches(${tsQuery}::text, '''([^'']+)''', 'g') as hit)`;
  const headline = hasText
    ? sql`ts_headline('english', ${window}, ${tsQuery},
        ${`StartSel=${SNIPPET_START}, StopSel=${SNIPPET_STOP}, MaxWords=20, MinWords=8, MaxFragments=1`})`
    : sql`null`;

  // The rows of the page, the count and the facets, from `filtered` and `counted`.
  const pageAndFacets = (facetsOf: 'matched' | 'facet_hits') => sql`
    paged as (
      select f.manuscript_id, f.read_count, row_number() over () as position
      from (
        select * from filtered order by ${orderBy(request.sort, hasText)}
        limit ${DISCOVER_PAGE_SIZE}
        offset (select least(${wantedOffset}, greatest(total - 1, 0) / ${DISCOVER_PAGE_SIZE} * ${DISCOVER_PAGE_SIZE}) from counted)
      ) f
    )
    select
      (select total from counted) as total,
      (select capped from counted) as capped,
      (select facet_capped from counted) as facet_capped,
      (select least(${request.page}, greatest(total - 1, 0) / ${DISCOVER_PAGE_SIZE} + 1) from counted) as current,
      (select coalesce(json_agg(json_build_object('category', category, 'count', n)), '[]')
         from (select category, count(*)::integer as n from ${sql.raw(facetsOf)} group by category) c) as categories,
      (select coalesce(json_agg(json_build_object('id', genre_id, 'count', n)), '[]')
         from (select unnest(genre_ids) as genre_id, count(*)::integer as n
               from ${sql.raw(facetsOf)} group by 1) g) as genres,
      (select coalesce(json_agg(json_build_object(
                'id', pg.manuscript_id, 'owner_id', s2.owner_id, 'read_count', pg.read_count,
                'snippet', ${headline})
              order by pg.position), '[]')
         from paged pg join manuscript_search s2 on s2.manuscript_id = pg.manuscript_id) as items`;

  // A search without words lists the whole shelf (browse, below): one statement, counts kept.
  const statement = sql`
    with matched as materialized (
      select s.manuscript_id, s.category, s.genre_ids, s.created_at, s.read_count,
             s.comment_count, 0 as rank
      from manuscript_search s
      where ${discoverable(viewer)}
    ),
    filtered as materialized (
      select * from matched where true ${filters(request)}
    ),
    counted as (
      select count(*)::integer as total, false as capped, false as facet_capped from filtered
    ),
    ${pageAndFacets('matched')}
  `;
  // A search with words: each way of matching (the words in a title, the words in the
  // document, a title or an author's name like the words) takes at most
  // DISCOVER_RESULT_CAP + 1 matches from its index, in index order (or the sort's order), and
  // only those are ranked, counted and paged: a broad word ("storm" is in 40% of texts) costs
  // no more than a rare one, and its title matches are among them (their own small index).
  // The trigram ways (typos in titles and names) run only when the words matched less than a
  // page of documents: a misspelt word is mostly corrected into the words already
  // (searchQueryCte()), and "silver lantern" is not a typo of every title with "silver" in it;
  // not for a quoted phrase.
  const cap = DISCOVER_RESULT_CAP;
  const tierOrder =
    request.sort === 'relevance' ? sql`` : sql`order by ${orderBy(request.sort, false)}`;
  const tierColumns = sql.raw(TIER_COLUMNS.map((column) => `s.${column}`).join(', '));
  const tierNames = sql.raw(TIER_COLUMNS.join(', '));
  // By relevance, the words' matches are the title's ones and then as many of the others as
  // make DISCOVER_RESULT_CAP + 1 (the titles rank first; ranking fewer rows costs less). In
  // another order each way takes its own first ones, as any of them may come first.
  const disjoint = request.sort === 'relevance' && !phrased;
  const severalWords = /\s/.test(request.q.trim());
  const tiers = (prefix: string, withFilters: boolean) => {
    const where = sql`${discoverable(viewer)} ${withFilters ? filters(request) : sql``}`;
    const doc = sql.raw(`${prefix}_doc`);
    const titleWords = sql.raw(`${prefix}_title_words`);
    const textMatches = disjoint
      ? sql`(select count(*) from ${titleWords}) + (select count(*) from ${doc})`
      : sql`(select count(*) from ${doc})`;
    // A quoted phrase asks for those words in that order: no title "like" it.
    const trigram = (name: string, column: SQL) => sql`
      ${sql.raw(`${prefix}_${name}`)} as materialized (
        select ${tierColumns}, true as named from manuscript_search s
        where ${
          phrased
            ? sql`false`
            : sql`${key} <% ${column} and ${where} ${
                severalWords
                  ? sql`and word_similarity(${key}, ${column}) >= ${PHRASE_SIMILARITY}`
                  : sql``
              }
          and ${textMatches} < ${DISCOVER_PAGE_SIZE}`
        }
        ${tierOrder} limit ${cap + 1}
      )`;
    // A phrase's positions are in the whole document (read from the TOAST table): checked only
    // on the first DISCOVER_RESULT_CAP + 1 documents that hold all its words, as a broad word
    // takes only so many matches (the titles holding it are all found, by their own index).
    const candidates = sql.raw(`${prefix}_candidates`);
    const docMatches = phrased
      ? sql`
      ${candidates} as materialized (
        select ${tierColumns}, s.document from manuscript_search s
        where s.document @@ ${wordsOf} and ${where}
        ${tierOrder} limit ${cap + 1}
      ),
      ${doc} as materialized (
        select ${tierNames}, false as named from ${candidates}
        where document @@ ${tsQuery}
      ),`
      : disjoint
        ? sql`
      ${doc} as materialized (
        select ${tierColumns}, false as named from manuscript_search s
        where s.document @@ ${tsQuery} and ${where}
          and s.manuscript_id not in (select manuscript_id from ${titleWords})
        limit (select ${cap + 1} - count(*) from ${titleWords})
      ),`
        : sql`
      ${doc} as materialized (
        select ${tierColumns}, false as named from manuscript_search s
        where s.document @@ ${tsQuery} and ${where}
        ${tierOrder} limit ${cap + 1}
      ),`;
    return sql`
      ${titleWords} as materialized (
        select ${tierColumns}, true as named from manuscript_search s
        where to_tsvector('english'::regconfig, s.title_key) @@ ${tsQuery} and ${where}
        ${tierOrder} limit ${cap + 1}
      ),
      ${docMatches}
      ${trigram('title', sql`s.title_key`)},
      ${trigram('author', sql`s.author_key`)}`;
  };
  // The matches of all ways, once each, with what ranking and counting them needs (read with
  // them: the rows are not visited twice).
  const tierRows = (prefix: string) =>
    sql.raw(`(select distinct on (manuscript_id) * from (
        select * from ${prefix}_title_words union all select * from ${prefix}_doc
        union all select * from ${prefix}_title union all select * from ${prefix}_author) t
      order by manuscript_id, named desc) s`);
  const tierCapped = (prefix: string) =>
    sql.raw(`${phrased ? `(select count(*) from ${prefix}_candidates) > ${cap} or ` : ''}
        ${disjoint ? `(select count(*) from ${prefix}_title_words) + (select count(*) from ${prefix}_doc) > ${cap} or ` : ''}
        (select count(*) from ${prefix}_doc) > ${cap}
        or (select count(*) from ${prefix}_title_words) > ${cap}
        or (select count(*) from ${prefix}_title) > ${cap}
        or (select count(*) from ${prefix}_author) > ${cap}`);
  const filtering = request.fs !== '' || request.genre_ids.length > 0;
  // A filtered search's facets are those of its words alone: kept from the last filtered search
  // with the same words (another genre ticked, the next page), else counted here.
  const facetsKey = `${viewer?.id ?? 0}|${viewer?.showMature ? 1 : 0}|${request.sort}|${request.q}`;
  const kept = hasText && filtering ? keptFacets.get(db, facetsKey) : null;
  const countFacets = filtering && !kept;
  const textStatement = sql`
    with ${searchQueryCte(request.q)},
    ${tiers('page', true)},
    ${countFacets ? sql`${tiers('facet', false)},` : sql``}
    filtered as materialized (
      select s.manuscript_id, s.category, s.genre_ids, s.created_at, s.read_count,
             s.comment_count, ${rank} as rank
      from ${tierRows('page')}
      order by ${orderBy(request.sort, true)}
      limit ${cap}
    ),
    facet_hits as (
      ${
        countFacets
          ? sql`select category, genre_ids from ${tierRows('facet')}`
          : kept
            ? sql`select null::text as category, null::integer[] as genre_ids where false`
            : sql`select category, genre_ids from filtered`
      }
    ),
    counted as (
      select count(*)::integer as total, ${tierCapped('page')} as capped,
             ${countFacets ? tierCapped('facet') : sql`false`} as facet_capped
      from filtered
    ),
    ${pageAndFacets('facet_hits')}
  `;
  const result = hasText ? await runWithSettings(db, SEARCH_SETTINGS, textStatement) : null;
  const row = result
    ? (result as unknown as { rows: SearchRow[] }).rows[0]!
    : await browse(db, viewer, request, statement);
  if (kept) Object.assign(row, kept);
  else if (countFacets) {
    keptFacets.set(db, facetsKey, {
      categories: row.categories,
      genres: row.genres,
      facet_capped: row.facet_capped,
    });
  }
  const total = Number(row.total);
  const lastPage = Math.max(1, Math.ceil(total / DISCOVER_PAGE_SIZE));
  const current = Number(row.current);

  const cards = await presentManyById(
    db,
    row.items.map((item) => ({ id: item.id, userId: item.owner_id })),
  );
  const cardById = new Map(cards.map((card) => [card.id, card]));
  // One gone since the search is not shown.
  const items = row.items.flatMap((item) => {
    const card = cardById.get(item.id);
    return card
      ? [{ ...card, read_count: item.read_count, snippet: parseSnippet(item.snippet) }]
      : [];
  });
  return {
    page: {
      items,
      iter_pages: pageInfoFor(total, current, DISCOVER_PAGE_SIZE).iter_pages,
      first_page: 1,
      last_page: lastPage,
      current,
    },
    total,
    total_capped: row.capped || row.facet_capped,
    facets: { categories: row.categories, genres: row.genres },
    query: {
      q: request.q,
      fs: request.fs,
      genre_ids: request.genre_ids,
      page: current,
      sort: request.sort,
    },
  };
}
