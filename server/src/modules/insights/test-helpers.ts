import { eq } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { UserRow } from '../../context.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';

const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');

/**
 * Three chapters (h1, h2, h1 with an h3 inside: three, not four), 1,000 words each, in
 * blocks of 500: c1 (c1a, c1b), c2 (c2a, c2b), c3 (c3a, c3s, c3b).
 */
const BOOK_HTML = [
  '<h1 id="c1">One</h1>',
  `<p id="c1a">${words(500)}</p>`,
  `<p id="c1b">${words(500)}</p>`,
  '<h2 id="c2">Two</h2>',
  `<p id="c2a">${words(500)}</p>`,
  `<p id="c2b">${words(500)}</p>`,
  '<h1 id="c3">Three</h1>',
  `<p id="c3a">${words(500)}</p>`,
  '<h3 id="c3s">Aside</h3>',
  `<p id="c3b">${words(499)}</p>`,
].join('');

const BOOK_TOC = [
  { id: 'c1', level: 1 as const, text: 'One' },
  { id: 'c2', level: 2 as const, text: 'Two' },
  { id: 'c3', level: 1 as const, text: 'Three' },
  { id: 'c3s', level: 3 as const, text: 'Aside' },
];

/** A public manuscript of three chapters (BOOK_HTML). */
export async function buildBook(db: Executor, author: UserRow, title = 'Three Chapters') {
  const manuscript = await buildManuscript(db, author, { visibility: 'public', title }, BOOK_HTML);
  await db
    .update(schema.manuscriptVersions)
    .set({ toc: BOOK_TOC, words: 3002 })
    .where(eq(schema.manuscriptVersions.id, manuscript.currentVersionId!));
  return manuscript;
}
