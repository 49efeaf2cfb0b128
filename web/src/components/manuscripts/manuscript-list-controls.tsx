// Sort and filter for a long list of the author's manuscripts (the dashboard), client-side.
import { useId } from 'react';
import type { InviteType, Manuscript } from '@margins/common';
import { lazy } from '../../lib/lazy.ts';
import { VISIBILITY_OPTIONS } from './visibility.ts';

const MANUSCRIPT_SORTS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'updated', label: 'Recently changed' },
  { value: 'title', label: 'Title A–Z' },
  { value: 'comments', label: 'Most comments' },
  { value: 'words', label: 'Longest first' },
] as const;
type ManuscriptSort = (typeof MANUSCRIPT_SORTS)[number]['value'];

/** How the list is shown: the order, one visibility or all, and words the title must hold. */
interface Arrangement {
  sort: ManuscriptSort;
  visibility: InviteType | 'all';
  query: string;
}

export const DEFAULT_ARRANGEMENT: Arrangement = { sort: 'newest', visibility: 'all', query: '' };

// Made on first sort (lib/lazy.ts).
const collator = lazy(() => new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }));
const time = (value: string) => Date.parse(value) || 0;

const COMPARE: Record<ManuscriptSort, (a: Manuscript, b: Manuscript) => number> = {
  newest: (a, b) => time(b.created) - time(a.created),
  updated: (a, b) => time(b.updated) - time(a.updated),
  title: (a, b) => collator().compare(a.title, b.title),
  comments: (a, b) => b.comment_count - a.comment_count,
  words: (a, b) => b.words - a.words,
};

/** The manuscripts that pass the filters, in the chosen order (ties: newest first). */
export function arrangeManuscripts(list: readonly Manuscript[], arrangement: Arrangement) {
  const words = arrangement.query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return list
    .filter(
      (manuscript) =>
        arrangement.visibility === 'all' || manuscript.visibility === arrangement.visibility,
    )
    .filter((manuscript) => {
      const title = manuscript.title.toLocaleLowerCase();
      return words.every((word) => title.includes(word));
    })
    .sort((a, b) => COMPARE[arrangement.sort](a, b) || COMPARE.newest(a, b));
}

/** The search, visibility and sort controls above the list, and how many are shown. */
export function ManuscriptListControls({
  arrangement,
  onChange,
  shown,
  total,
}: {
  arrangement: Arrangement;
  onChange: (arrangement: Arrangement) => void;
  shown: number;
  total: number;
}) {
  const id = useId();
  const filtered = arrangement.visibility !== 'all' || arrangement.query.trim() !== '';
  return (
    <div
      role="search"
      aria-label="Sort and filter my manuscripts"
      className="mb-6 flex flex-wrap items-end gap-x-4 gap-y-3"
      data-manuscript-controls
    >
      <div className="min-w-48 flex-1">
        <label htmlFor={`${id}-query`} className="field-label">
          Find by title
        </label>
        <input
          id={`${id}-query`}
          type="search"
          className="field-input"
          value={arrangement.query}
          onChange={(event) => onChange({ ...arrangement, query: event.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${id}-visibility`} className="field-label">
          Who can read
        </label>
        <select
          id={`${id}-visibility`}
          className="field-input"
          value={arrangement.visibility}
          onChange={(event) =>
            onChange({
              ...arrangement,
              visibility: event.target.value as Arrangement['visibility'],
            })
          }
        >
          <option value="all">Any</option>
          {VISIBILITY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-sort`} className="field-label">
          Sort
        </label>
        <select
          id={`${id}-sort`}
          className="field-input"
          value={arrangement.sort}
          onChange={(event) =>
            onChange({ ...arrangement, sort: event.target.value as ManuscriptSort })
          }
        >
          {MANUSCRIPT_SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <p className="w-full text-sm text-muted" role="status">
        {filtered ? `Showing ${shown} of ${total}.` : `${total} manuscripts.`}{' '}
        {filtered ? (
          <button
            type="button"
            className="cursor-pointer font-medium text-accent underline"
            onClick={() => onChange({ ...arrangement, visibility: 'all', query: '' })}
          >
            Show all
          </button>
        ) : null}
      </p>
    </div>
  );
}
