import type { GenreCategory, Manuscript } from '@margins/common';
import { buildUser } from './factories.ts';

let nextId = 500;

/** A readable, public-facing manuscript of a fresh author unless given. */
export function buildManuscript(overrides: Partial<Manuscript> = {}): Manuscript {
  const id = overrides.id ?? nextId++;
  const author = overrides.author ?? buildUser({ display_name: 'June Harrow' });
  return {
    id,
    title: `Manuscript ${id}`,
    summary: 'A lighthouse keeper’s daughter counts the lamps and finds one missing.',
    visibility: 'private',
    private_comments: false,
    nsfw: false,
    category: 'fiction',
    genres: [],
    genre_ids: [],
    created: '2026-01-05T10:00:00.000Z',
    updated: '2026-01-05T10:00:00.000Z',
    inking: false,
    approvals_required: false,
    author,
    user_id: author.id,
    moderation_flag: false,
    moderation_reason: null,
    comment_count: 0,
    words: 1200,
    ...overrides,
  };
}

/** A small genre catalogue grouped by category. */
export function buildCatalogue(): GenreCategory[] {
  return [
    {
      category: 'fiction',
      genres: [
        { genre_id: 1, name: 'Fantasy' },
        { genre_id: 2, name: 'Mystery' },
      ],
    },
    { category: 'poetry', genres: [{ genre_id: 3, name: 'Sonnet' }] },
  ];
}
