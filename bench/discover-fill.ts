// Fills a database with N public manuscripts for the Discover benchmark (and by hand:
//   DATABASE_URL=postgres://… npx tsx bench/discover-fill.ts 100000).
// The texts are made here in JavaScript from a ranked vocabulary drawn by Zipf's law
// (discover-words.ts: common words common, most words rare, as in real text): titles of two
// to four content words, a summary sentence, an opening of ~350 words in paragraphs, authors
// with accented names, two genres of the manuscript's category. Rows go in as large batches
// (one INSERT … SELECT FROM unnest(arrays) per few thousand rows, on both drivers) with the
// search triggers switched off; the search rows are then written in bulk by the very function
// the triggers call (margins_search_refresh_many), so they are exactly what the triggers write.
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../server/src/db/index.ts';
import { seedGenres } from '../server/src/seed/index.ts';
import {
  CONTENT_WORDS,
  FUNCTION_WORDS,
  madeUpWords,
  NAMES,
  SENTENCES,
  SURNAMES,
  seededRandom,
  zipfSampler,
} from './discover-words.ts';

const OPENING_WORDS = 350;
const BATCH = 2_000;
const CATEGORIES = ['fiction', 'non-fiction', 'poetry'] as const;

const contentWords = [...new Set(CONTENT_WORDS)];
const vocabulary = [...new Set([...FUNCTION_WORDS, ...contentWords, ...madeUpWords(6_000)])];

/** A Postgres array literal's text for a text[] parameter (quoted, escaped). */
const textArray = (items: string[]) =>
  `{${items.map((item) => `"${item.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
const intArray = (items: number[]) => `{${items.join(',')}}`;

function makeTexts(random: () => number) {
  const word = zipfSampler(vocabulary, random);
  const titleWord = zipfSampler(contentWords, random);
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const title = () => {
    const words = Array.from({ length: 2 + Math.floor(random() * 3) }, titleWord);
    return (random() < 0.3 ? 'The ' : '') + words.map(capital).join(' ');
  };
  const opening = () => {
    const paragraphs: string[] = [];
    let sentence: string[] = [];
    let paragraph: string[] = [SENTENCES[Math.floor(random() * SENTENCES.length)]!];
    for (let index = 0; index < OPENING_WORDS; index += 1) {
      sentence.push(word());
      if (sentence.length >= 6 + random() * 14) {
        paragraph.push(capital(sentence.join(' ')) + '.');
        sentence = [];
        if (paragraph.length >= 3 + random() * 4) {
          paragraphs.push(paragraph.join(' '));
          paragraph = [];
        }
      }
    }
    if (sentence.length) paragraph.push(capital(sentence.join(' ')) + '.');
    if (paragraph.length) paragraphs.push(paragraph.join(' '));
    return (
      '<h1 id="c1">Chapter One</h1>' +
      paragraphs.map((text, index) => `<p id="p${index + 1}">${text}</p>`).join('')
    );
  };
  return { title, opening };
}

/** Writes `count` public manuscripts (and their authors) into a migrated database. */
export async function fillDiscover(db: Db, count: number, log = console.log): Promise<void> {
  const started = performance.now();
  const random = seededRandom(20_261_125);
  const texts = makeTexts(random);
  await db.transaction(async (tx) => seedGenres(tx));
  const genreRows = (await db.execute(sql`
    select g.id, c.name as category from genres g join genre_categories c on c.id = g.category_id
    order by g.id`)) as unknown as { rows: Array<{ id: number; category: string }> };
  const genresOf = new Map(
    CATEGORIES.map((category) => [
      category,
      genreRows.rows.filter((row) => row.category === category).map((row) => row.id),
    ]),
  );

  const authors = Math.max(10, Math.round(count / 50));
  const authorNames = Array.from(
    { length: authors },
    (_, n) =>
      `${NAMES[n % NAMES.length]} ${SURNAMES[Math.floor(n / NAMES.length) % SURNAMES.length]}`,
  );
  const firstAuthor = Number(
    (
      (await db.execute(sql`
        insert into users (email, password_hash, display_name, handle, signup_completed_at)
        select 'author' || n || '@bench.test', '!', name, 'author_' || n, now()
        from unnest(${textArray(authorNames)}::text[]) with ordinality as a(name, n)
        returning id`)) as unknown as { rows: Array<{ id: number }> }
    ).rows.reduce((min, row) => Math.min(min, row.id), Number.MAX_SAFE_INTEGER),
  );
  const base = async (table: string) =>
    Number(
      (
        (await db.execute(
          sql.raw(`select coalesce(max(id), 0) as id from ${table}`),
        )) as unknown as { rows: Array<{ id: number }> }
      ).rows[0]!.id,
    );
  const firstManuscript = (await base('manuscripts')) + 1;
  const firstVersion = (await base('manuscript_versions')) + 1;

  for (const table of ['manuscripts', 'manuscript_genres']) {
    await db.execute(sql.raw(`alter table ${table} disable trigger user`));
  }
  const now = Date.now();
  for (let from = 0; from < count; from += BATCH) {
    const size = Math.min(BATCH, count - from);
    const ids = Array.from({ length: size }, (_, index) => firstManuscript + from + index);
    const categories = ids.map((_, index) => CATEGORIES[(from + index) % 3]!);
    const titles = ids.map(() => texts.title());
    const summaries = ids.map(() => SENTENCES[Math.floor(random() * SENTENCES.length)]!);
    const owners = ids.map(() => firstAuthor + Math.floor(random() * authors));
    const created = ids.map((_, index) => new Date(now - (count - from - index) * 60_000));
    await db.execute(sql`
      insert into manuscripts (id, user_id, title, summary, visibility, category, nsfw, inking,
                               words, created_at, updated_at)
      select id, owner, title, summary, 'public', category, id % 23 = 0, false, ${OPENING_WORDS},
             created, created
      from unnest(${intArray(ids)}::integer[], ${intArray(owners)}::integer[],
                  ${textArray(titles)}::text[], ${textArray(summaries)}::text[],
                  ${textArray(categories)}::text[],
                  ${textArray(created.map((date) => date.toISOString()))}::timestamptz[])
        as m(id, owner, title, summary, category, created)`);
    const htmls = ids.map(() => texts.opening());
    await db.execute(sql`
      insert into manuscript_versions (id, manuscript_id, number, source_format, file_name, html,
                                       toc, words)
      select ${firstVersion - firstManuscript}::integer + m, m, 1, 'html', 'bench.html', html,
             '[{"id":"c1","level":1,"text":"Chapter One"}]'::jsonb, ${OPENING_WORDS}
      from unnest(${intArray(ids)}::integer[], ${textArray(htmls)}::text[]) as v(m, html)`);
    const links = ids.flatMap((id, index) => {
      const pool = genresOf.get(categories[index]!)!;
      const first = Math.floor(random() * pool.length);
      const second = (first + 1 + Math.floor(random() * (pool.length - 1))) % pool.length;
      return first === second
        ? [[id, pool[first]!]]
        : [
            [id, pool[first]!],
            [id, pool[second]!],
          ];
    });
    await db.execute(sql`
      insert into manuscript_genres (manuscript_id, genre_id)
      select * from unnest(${intArray(links.map((link) => link[0]!))}::integer[],
                           ${intArray(links.map((link) => link[1]!))}::integer[])`);
    if ((from + size) % 20_000 === 0 || from + size === count) {
      log(`  manuscripts ${(from + size).toLocaleString()} / ${count.toLocaleString()}`);
    }
  }
  await db.execute(sql`
    update manuscripts set current_version_id = id + ${firstVersion - firstManuscript}::integer
    where id >= ${firstManuscript}`);
  await db.execute(sql`select setval(pg_get_serial_sequence('manuscripts', 'id'),
                                     (select max(id) from manuscripts))`);
  await db.execute(sql`select setval(pg_get_serial_sequence('manuscript_versions', 'id'),
                                     (select max(id) from manuscript_versions))`);
  for (const table of ['manuscripts', 'manuscript_genres']) {
    await db.execute(sql.raw(`alter table ${table} enable trigger user`));
  }
  log(`  rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; search rows …`);
  const step = 5_000;
  for (let from = firstManuscript; from < firstManuscript + count; from += step) {
    const ids = Array.from(
      { length: Math.min(step, firstManuscript + count - from) },
      (_, index) => from + index,
    );
    await db.execute(sql`select margins_search_refresh_many(${intArray(ids)}::integer[], true)`);
    const done = from + ids.length - firstManuscript;
    if (done % 20_000 === 0 || done === count) log(`  search rows ${done.toLocaleString()}`);
  }
  await db.execute(sql`analyze`);
  log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// Run directly: fills the database of DATABASE_URL (or DATA_DIR, embedded) with N manuscripts.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 100_000);
  const url = process.env.DATABASE_URL;
  const dir = process.env.DATA_DIR;
  if (!url && !dir) {
    console.log(
      'usage: DATABASE_URL=postgres://… | DATA_DIR=dir npx tsx bench/discover-fill.ts [count]',
    );
  } else {
    const database = await openDatabase(url ? { databaseUrl: url } : { dataDir: dir! });
    await fillDiscover(database.db, count);
    await database.close();
  }
}
