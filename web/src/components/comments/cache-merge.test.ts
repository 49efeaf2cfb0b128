import { describe, expect, it } from 'vitest';
import {
  applyCatchUp,
  applyRank,
  removeComment,
  upsertComment,
  upsertHighlight,
  type CommentsData,
} from '../../api/comments.ts';
import { buildComment, buildHighlight } from './test-data.ts';

function cache(overrides: Partial<CommentsData> = {}): CommentsData {
  return { comments: [], highlights: [], cursor: '2026-01-05T09:59:50.000Z', ...overrides };
}

describe('merging into the cached comments, by id', () => {
  it('keeps one copy of a comment that arrives as the ack and again as the broadcast', () => {
    const saved = buildComment({ id: 1, comment: 'Hooked already.', my_vote: 0 });
    let data = upsertComment(cache(), saved);
    // The broadcast has no my_vote; it must neither double the comment nor lose the vote.
    const { my_vote: _vote, ...broadcast } = { ...saved, rank: 2 };
    data = upsertComment(data, broadcast);
    data = upsertComment(data, broadcast);
    expect(data.comments).toHaveLength(1);
    expect(data.comments[0]).toMatchObject({ id: 1, rank: 2, my_vote: 0 });
  });

  it('does not let an older copy overwrite an edit', () => {
    const edited = buildComment({
      id: 2,
      comment: 'New text',
      updated: '2026-01-05T10:05:00.000Z',
    });
    const stale = buildComment({ id: 2, comment: 'Old text', updated: '2026-01-05T10:00:00.000Z' });
    const data = upsertComment(upsertComment(cache(), edited), stale);
    expect(data.comments.map((comment) => comment.comment)).toEqual(['New text']);
  });

  it('keeps one copy of a highlight, and drops it with its comments when the server says so', () => {
    const highlight = buildHighlight({ selection_id: 'sel-a' });
    let data = upsertHighlight(upsertHighlight(cache(), highlight), highlight);
    data = upsertComment(data, buildComment({ id: 3, selection_id: 'sel-a' }));
    data = upsertComment(data, buildComment({ id: 4, selection_id: 'sel-a' }));
    expect(data.highlights).toHaveLength(1);

    data = removeComment(data, { id: 3, selection_id: 'sel-a', highlight_removed: false });
    expect(data.comments.map((comment) => comment.id)).toEqual([4]);
    expect(data.highlights).toHaveLength(1);
    data = removeComment(data, { id: 4, selection_id: 'sel-a', highlight_removed: true });
    expect(data.comments).toEqual([]);
    expect(data.highlights).toEqual([]);
  });

  it('a cancelled new comment (id null) removes only the highlight', () => {
    const data = removeComment(cache({ highlights: [buildHighlight({ selection_id: 'sel-b' })] }), {
      id: null,
      selection_id: 'sel-b',
      highlight_removed: true,
    });
    expect(data.highlights).toEqual([]);
  });

  it('applies comment_ranked to the rank only', () => {
    const data = applyRank(
      cache({ comments: [buildComment({ id: 5, rank: 1, my_vote: 1 })] }),
      5,
      4,
    );
    expect(data.comments[0]).toMatchObject({ rank: 4, my_vote: 1 });
    const unknown = cache();
    expect(applyRank(unknown, 99, 1)).toBe(unknown);
  });

  it('merges a reconnect catch-up: new and changed by id, tombstones removed, the new cursor kept', () => {
    const kept = buildComment({ id: 10, selection_id: 'sel-1', comment: 'Seen before' });
    const removed = buildComment({ id: 11, selection_id: 'sel-1' });
    const gone = buildHighlight({ selection_id: 'sel-gone' });
    const start = cache({
      highlights: [buildHighlight({ selection_id: 'sel-1' }), gone],
      comments: [kept, removed, buildComment({ id: 12, selection_id: 'sel-gone' })],
    });
    const next = applyCatchUp(start, {
      // The cursor lies a little in the past: what we already have comes again.
      comments: [
        kept,
        { ...kept, id: 13, comment: 'Missed while offline', created: '2026-01-05T10:01:00.000Z' },
      ],
      highlights: [buildHighlight({ selection_id: 'sel-1' })],
      deleted: { comments: [11], highlights: ['sel-gone'] },
      cursor: '2026-01-05T10:01:50.000Z',
    });
    expect(next.comments.map((comment) => comment.id)).toEqual([10, 13]);
    expect(next.highlights.map((highlight) => highlight.selection_id)).toEqual(['sel-1']);
    expect(next.cursor).toBe('2026-01-05T10:01:50.000Z');
  });

  it('keeps the same arrays when a catch-up only repeats what the cache has (issue 18)', () => {
    // Copies as a second answer parses them: equal data, other objects.
    const highlights = [buildHighlight({ selection_id: 'sel-1' })];
    const comments = [buildComment({ id: 20, selection_id: 'sel-1', my_vote: 1 })];
    const start = cache({ comments, highlights });
    const repeat = {
      comments: structuredClone(comments),
      highlights: structuredClone(highlights),
      deleted: { comments: [], highlights: [] },
      cursor: start.cursor,
    };
    const next = applyCatchUp(start, repeat);
    // Same arrays: the reader does not place and draw every highlight again.
    expect(next.highlights).toBe(start.highlights);
    expect(next.comments).toBe(start.comments);
    expect(next).toBe(start);

    // A real change among the repeats still lands (and only the comments array is new).
    const ranked = applyCatchUp(start, {
      ...repeat,
      comments: [{ ...structuredClone(comments[0]!), rank: 3 }],
      cursor: '2026-01-05T10:02:00.000Z',
    });
    expect(ranked.comments[0]).toMatchObject({ id: 20, rank: 3, my_vote: 1 });
    expect(ranked.highlights).toBe(start.highlights);
    expect(ranked.cursor).toBe('2026-01-05T10:02:00.000Z');
  });
});
