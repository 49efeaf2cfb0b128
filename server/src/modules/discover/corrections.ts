import { sql, type SQL } from 'drizzle-orm';

/** Trigram similarity a lexicon word needs to be a correction candidate at all. */
export const CANDIDATE_SIMILARITY = 0.2;
/** The most letters a correction may change (Levenshtein distance). */
const MAX_EDITS = 2;
/** Words shorter than this are taken as typed: too short to tell a typo from another word. */
const MIN_CORRECTED_LENGTH = 4;

/** Search words worth correcting: plain words, not operators, long enough. */
function correctableWords(q: string): string[] {
  const words = q
    .replace(/"[^"]*"/g, ' ')
    .split(/\s+/)
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word.length >= MIN_CORRECTED_LENGTH && !/^(or|and|not)$/i.test(word));
  return [...new Set(words)].slice(0, 8);
}

/**
 * The search's text query, as a statement's CTE `search_query(q, key)`: the words as typed
 * (websearch_to_tsquery: "quoted phrases", OR, -exclusions; it never fails on syntax) or the
 * corrections of those no title or author's name contains: for each, the nearest word one
 * does (at most MAX_EDITS letters away), "dargon" → "dragon". Trigrams find the candidates fast
 * (pg_trgm.similarity_threshold is CANDIDATE_SIMILARITY, set by the caller); the edit distance
 * chooses, so swapped letters count as the small slip they are. `key` is the words folded
 * (lower case, no accents), as titles and names are kept for trigram matching. In the search's
 * own statement: no round trip of its own, and computed once, not per row.
 */
export function searchQueryCte(q: string): SQL {
  const typed = sql`websearch_to_tsquery('english', margins_fold(${q}))`;
  const words = correctableWords(q);
  const key = sql`margins_fold(${q}) as key`;
  if (words.length === 0) return sql`search_query as materialized (select ${typed} as q, ${key})`;
  return sql`
    search_fixes as materialized (
      select (
        select w.word from search_words w
        where w.word % q.word and levenshtein(w.word, q.word) <= ${MAX_EDITS}
        order by levenshtein(w.word, q.word), similarity(w.word, q.word) desc
        limit 1
      ) as fix
      from unnest(${`{${words.map((word) => `"${word}"`).join(',')}}`}::text[]) as typed(raw),
           lateral (select margins_fold(typed.raw) as word) q
      where not exists (select 1 from search_words w where w.word = q.word)
    ),
    search_query as materialized (
      select case when fixes.q is null then ${typed} else ${typed} || fixes.q end as q, ${key}
      from (select to_tsquery('english', string_agg(quote_literal(fix), ' | ')) as q
            from search_fixes where fix is not null) fixes
    )`;
}
