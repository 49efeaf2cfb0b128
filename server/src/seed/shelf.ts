import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { schema } from '../db/index.ts';
import { GENRE_CATALOGUE } from './genres.ts';

/**
 * A shelf of short public manuscripts by a few more (demo) authors, so Discover has something
 * to find on a fresh start: generated here from word lists with a fixed seed (the same shelf
 * every time), written straight as normalised HTML (no conversion needed for such plain text).
 */
const SHELF_SIZE = 36;

const AUTHORS = [
  { handle: 'eloise_marchetti', displayName: 'Éloïse Marchetti' },
  { handle: 'kwame_asante', displayName: 'Kwame Asante' },
  { handle: 'ines_duarte', displayName: 'Inês Duarte' },
  { handle: 'haruto_sato', displayName: 'Haruto Sato' },
  { handle: 'maeve_obrien', displayName: "Maeve O'Brien" },
];

const ADJECTIVES = [
  'Salt',
  'Hollow',
  'Silver',
  'Drowned',
  'Paper',
  'Quiet',
  'Amber',
  'Last',
  'Winter',
  'Borrowed',
  'Crooked',
  'Midnight',
];
const NOUNS = [
  'Dragon',
  'Lighthouse',
  'Orchard',
  'Cartographer',
  'Ledger',
  'Harbour',
  'Violin',
  'Garden',
  'Archive',
  'Comet',
  'Ferry',
  'Kingdom',
];
const PLACES = [
  'Maren Hollow',
  'the Sallow Bridges',
  'Lisbon',
  'the northern fens',
  'a tidal island',
  'an empty observatory',
  'the old quarter',
  'a river city',
];
const SENTENCES = [
  'The lamps along the quay went out one by one, as if someone were counting them.',
  'She kept the letters in a biscuit tin and read them only when it rained.',
  'Nobody in the village remembered who had planted the orchard, only that it had always been there.',
  'He measured the coastline twice and got two different answers, and believed both.',
  'The map was wrong in exactly one place, and that was where the story began.',
  'By morning the tide had taken the road, and the island belonged to itself again.',
  'There is a kind of silence that only old libraries know how to keep.',
  'The dragon slept under the bridge, and the town paid its rent in bread and songs.',
  'Grief, it turned out, had a timetable, and it ran later than the ferries.',
  'Every ledger tells a story, if you know which numbers are lying.',
];

/** A small deterministic random number generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!;

/** One generated manuscript: title, summary, category, genres and its HTML. */
export function shelfManuscript(index: number) {
  const next = random(1000 + index);
  // Every adjective and noun, no title twice.
  const adjective = ADJECTIVES[index % ADJECTIVES.length]!;
  const noun = NOUNS[(index * 7 + Math.floor(index / ADJECTIVES.length)) % NOUNS.length]!;
  const title = `The ${adjective} ${noun}`;
  const place = pick(next, PLACES);
  const categories = Object.keys(GENRE_CATALOGUE);
  const category = categories[index % categories.length]! as 'fiction' | 'non-fiction' | 'poetry';
  const genres = [pick(next, GENRE_CATALOGUE[category]!), pick(next, GENRE_CATALOGUE[category]!)];
  const chapters = ['One', 'Two', 'Three'].map((name, chapter) => {
    const paragraphs = Array.from(
      { length: 4 },
      (_, paragraph) =>
        `<p id="s${index}-c${chapter}-p${paragraph}">${[0, 1, 2].map(() => pick(next, SENTENCES)).join(' ')}</p>`,
    );
    return { id: `s${index}-c${chapter}`, name: `Chapter ${name}`, html: paragraphs.join('\n') };
  });
  const html = chapters
    .map((chapter) => `<h1 id="${chapter.id}">${chapter.name}</h1>\n${chapter.html}`)
    .join('\n');
  return {
    title,
    summary: `A short ${category === 'poetry' ? 'sequence of poems' : 'book'} set in ${place}.`,
    category,
    genres: [...new Set(genres)],
    nsfw: index % 11 === 10,
    html,
    toc: chapters.map((chapter) => ({ id: chapter.id, level: 1 as const, text: chapter.name })),
    words: html
      .replace(/<[^>]+>/g, ' ')
      .split(/\s+/)
      .filter(Boolean).length,
  };
}

/** Writes the shelf's authors (who cannot log in) and their public manuscripts. */
export async function seedDemoShelf(ctx: AppContext): Promise<number> {
  const genreRows = await ctx.db.select().from(schema.genres);
  const genreId = new Map(genreRows.map((genre) => [genre.name, genre.id]));
  await ctx.db.transaction(async (tx) => {
    const authors = await tx
      .insert(schema.users)
      .values(
        AUTHORS.map((author) => ({
          ...author,
          email: `${author.handle}@shelf.margins.local`,
          // No password hashes to this: nobody logs in as a shelf author.
          passwordHash: '!',
          about: 'One of the demo shelf authors.',
          emailVerifiedAt: new Date(),
          signupCompletedAt: new Date(),
        })),
      )
      .returning({ id: schema.users.id });
    // A few statements for the whole shelf (each row still passes the search triggers).
    const shelf = Array.from({ length: SHELF_SIZE }, (_, index) => shelfManuscript(index));
    const manuscripts = await tx
      .insert(schema.manuscripts)
      .values(
        shelf.map((demo, index) => ({
          userId: authors[index % authors.length]!.id,
          title: demo.title,
          summary: demo.summary,
          visibility: index % 6 === 5 ? ('logged_in' as const) : ('public' as const),
          category: demo.category,
          nsfw: demo.nsfw,
          inking: false,
          words: demo.words,
          createdAt: new Date(Date.now() - (SHELF_SIZE - index) * 3_600_000),
        })),
      )
      .returning({ id: schema.manuscripts.id });
    const links = shelf.flatMap((demo, index) =>
      demo.genres
        .map((name) => genreId.get(name))
        .filter((id) => id !== undefined)
        .map((id) => ({ manuscriptId: manuscripts[index]!.id, genreId: id })),
    );
    if (links.length > 0) await tx.insert(schema.manuscriptGenres).values(links);
    const versions = await tx
      .insert(schema.manuscriptVersions)
      .values(
        shelf.map((demo, index) => ({
          manuscriptId: manuscripts[index]!.id,
          number: 1,
          sourceFormat: 'html' as const,
          fileName: `${demo.title}.html`,
          html: demo.html,
          toc: demo.toc,
          words: demo.words,
        })),
      )
      .returning({
        id: schema.manuscriptVersions.id,
        manuscriptId: schema.manuscriptVersions.manuscriptId,
      });
    await tx.execute(sql`
      update manuscripts set current_version_id = v.id
      from manuscript_versions v
      where v.manuscript_id = manuscripts.id
        and v.id in (${sql.join(
          versions.map((version) => sql`${version.id}`),
          sql`, `,
        )})`);
  });
  return SHELF_SIZE;
}
