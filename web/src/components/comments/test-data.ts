import type { Comment, CommentAuthor, Highlight } from '@margins/common';

// Test data for the comment tests: a comment or highlight as the server presents them.

let nextId = 9_000;

export const readerAuthor: CommentAuthor = {
  id: 77,
  display_name: 'Sam Reader',
  handle: 'sam_reader',
  picture: null,
};

export function buildComment(overrides: Partial<Comment> = {}): Comment {
  const id = overrides.id ?? nextId++;
  const author = overrides.author ?? readerAuthor;
  return {
    id,
    manuscript_id: 31,
    author_id: author.id,
    author,
    comment: `Comment ${id}`,
    private: false,
    selection_id: 'sel-000001',
    created: '2026-01-05T10:00:00.000Z',
    updated: '2026-01-05T10:00:00.000Z',
    rank: 0,
    my_vote: 0,
    moderation_flag: false,
    moderation_reason: null,
    ...overrides,
  };
}

export function buildHighlight(overrides: Partial<Highlight> = {}): Highlight {
  return {
    selection_id: 'sel-000001',
    manuscript_id: 31,
    user_id: readerAuthor.id,
    version_id: 1,
    startPath: [0, 0],
    endPath: [0, 0],
    startOffset: 0,
    endOffset: 3,
    selectedText: 'The',
    block_id: 'p1',
    start: 0,
    end: 3,
    quote: { exact: 'The', prefix: '', suffix: ' fog' },
    colour: 0,
    orphaned: false,
    private: false,
    created: '2026-01-05T10:00:00.000Z',
    updated: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Someone else's highlight as the server sends it with private comments on: neither the
 * quote nor any offset that would locate it.
 */
export function buildWithheldHighlight(overrides: Partial<Highlight> = {}): Highlight {
  return buildHighlight({
    user_id: 12,
    startPath: [],
    endPath: [],
    startOffset: null,
    endOffset: null,
    start: null,
    end: null,
    block_id: null,
    selectedText: '',
    quote: { exact: '', prefix: '', suffix: '' },
    private: true,
    ...overrides,
  });
}
