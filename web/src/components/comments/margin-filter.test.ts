import { describe, expect, it } from 'vitest';
import type { Comment } from '@margins/common';
import { filterThreads, readFilters, writeFilters, type MarginFilters } from './margin-filter.ts';
import type { Thread } from './threads.ts';

const comment = (id: number, authorId: number, resolved = false): Comment => ({
  id,
  manuscript_id: 1,
  author_id: authorId,
  author: { id: authorId, display_name: `User ${authorId}`, handle: null, picture: null },
  comment: `Comment ${id}`,
  private: false,
  selection_id: `sel-${id}`,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  rank: 0,
  moderation_flag: false,
  moderation_reason: null,
  resolved_at: resolved ? '2026-01-02T00:00:00.000Z' : null,
});
const thread = (id: string, comments: Comment[], own = false): Thread => ({
  id,
  highlight: null,
  comments,
  start: 0,
  colour: 0,
  quote: '',
  draft: false,
  own,
});
const NONE: MarginFilters = { reader: null, chapter: null, mine: false, showResolved: false };

describe('margin filters', () => {
  const threads = [
    thread('a', [comment(1, 10), comment(2, 11, true)]),
    thread('b', [comment(3, 11, true)]),
    thread('c', [comment(4, 12)]),
    thread('d', [], true),
  ];
  const chapters: Record<string, string> = { a: 'ch-1', b: 'ch-1', c: 'ch-2' };
  const run = (filters: Partial<MarginFilters>, me: number | null = 12) =>
    filterThreads(threads, { ...NONE, ...filters }, me, (t) => chapters[t.id] ?? null).map((t) => [
      t.id,
      t.comments.map((c) => c.id),
    ]);

  it('folds resolved comments away unless shown', () => {
    expect(run({})).toEqual([
      ['a', [1]],
      ['c', [4]],
      ['d', []],
    ]);
    expect(run({ showResolved: true })).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
      ['c', [4]],
      ['d', []],
    ]);
  });

  it('filters by reader, chapter and mine', () => {
    expect(run({ reader: 11, showResolved: true })).toEqual([
      ['a', [2]],
      ['b', [3]],
      ['d', []],
    ]);
    expect(run({ chapter: 'ch-2' })).toEqual([
      ['c', [4]],
      ['d', []],
    ]);
    expect(run({ mine: true }, 10)).toEqual([
      ['a', [1]],
      ['d', []],
    ]);
    expect(run({ mine: true, chapter: 'ch-2' }, 12)).toEqual([
      ['c', [4]],
      ['d', []],
    ]);
  });

  it('round-trips through the URL, keeping other parameters', () => {
    const filters: MarginFilters = { reader: 7, chapter: 'h-2', mine: true, showResolved: true };
    const search = writeFilters('?x=1', filters);
    expect(search).toBe('?x=1&reader=7&chapter=h-2&mine=1&resolved=show');
    expect(readFilters(search)).toEqual(filters);
    expect(readFilters('?reader=abc')).toEqual(NONE);
    expect(writeFilters('?reader=7', NONE)).toBe('');
  });
});
