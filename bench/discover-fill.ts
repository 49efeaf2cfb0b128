// Fills a database with N public manuscripts for the Discover benchmark (and by hand:
//   DATABASE_URL=postgres://… npx tsx bench/discover-fill.ts 100000).
// The texts are made here in JavaScript from a ranked vocabulary drawn by Zipf's law
// (discover-words.ts: common words common, most words rare, as in real text): titles of two
// to four content words, a summary sentence, an opening of ~350 words in paragraphs, authors
// with accented names, two genres of the manuscript's category. Rows go in by COPY, a few
// thousand at a time (discover-copy.ts), with the search triggers switched off and the search
// tables' indexes dropped; the search rows are then written in bulk by the very function the
// triggers call (margins_search_refresh_many; only the openings' plain text is made here, and
// checked against margins_opening_text), and the indexes built once. 100,000 manuscripts take
// ~4 min on PostgreSQL 15 and ~16 min on PGlite on this (shared, loaded) machine.
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../server/src/db/index.ts';
import { copyRows } from './discover-copy.ts';
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
    return {
      html:
        '<h1 id="c1">Chapter One</h1>' +
        paragraphs.map((text, index) => `<p id="p${index + 1}">${text}</p>`).join(''),
      // Its plain text, as margins_opening_text makes it (tags out, one space between words).
      text: ['Chapter One', ...paragraphs].join(' '),
    };
  };
  return { title, opening };
}

/** Writes `count` public manuscripts (and their authors) into a migrated database. */
export async function fillDiscover(
  database: Database,
  count: number,
  log = console.log,
): Promise<void> {
  const { db } = database;
  // How busy the machine is (the same check as the benchmark's), to compare fills' times.
  const checked = performance.now();
  await db.execute(sql`select count(*) from generate_series(1, 1000000)`);
  log(
    `machine check: count(*) of 1,000,000 generated rows takes ${(performance.now() - checked).toFixed(1)} ms`,
  );
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
  // The search tables' indexes are built once at the end (a GIN index built from all rows is
  // many times faster than one kept up to date row by row); their definitions are kept here.
  const searchIndexes = (
    (await db.execute(sql`
      select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename in ('manuscript_search', 'search_words')
        and indexname not like '%_pkey'`)) as unknown as {
      rows: Array<{ indexname: string; indexdef: string }>;
    }
  ).rows;
  for (const index of searchIndexes) {
    await db.execute(sql.raw(`drop index if exists "${index.indexname}"`));
  }
  const phase = (label: string, since: number) =>
    log(`  ${label} in ${((performance.now() - since) / 1000).toFixed(1)} s`);
  const now = Date.now();
  const writing = performance.now();
  for (let from = 0; from < count; from += BATCH) {
    const size = Math.min(BATCH, count - from);
    const ids = Array.from({ length: size }, (_, index) => firstManuscript + from + index);
    const categories = ids.map((_, index) => CATEGORIES[(from + index) % 3]!);
    const owners = ids.map(() => firstAuthor + Math.floor(random() * authors));
    const created = ids.map((_, index) => new Date(now - (count - from - index) * 60_000));
    const manuscriptRows = ids.map((id, index) => [
      id,
      owners[index]!,
      texts.title(),
      SENTENCES[Math.floor(random() * SENTENCES.length)]!,
      'public',
      categories[index]!,
      id % 23 === 0,
      false,
      OPENING_WORDS,
      created[index]!.toISOString(),
      created[index]!.toISOString(),
    ]);
    await copyRows(
      database,
      'manuscripts (id, user_id, title, summary, visibility, category, nsfw, inking, words, created_at, updated_at)',
      manuscriptRows,
    );
    const openings = ids.map(() => texts.opening());
    const versionRows = ids.map((id, index) => [
      firstVersion - firstManuscript + id,
      id,
      1,
      'html',
      'bench.html',
      openings[index]!.html,
      '[{"id":"c1","level":1,"text":"Chapter One"}]',
      OPENING_WORDS,
    ]);
    await copyRows(
      database,
      'manuscript_versions (id, manuscript_id, number, source_format, file_name, html, toc, words)',
      versionRows,
    );
    // The search rows' plain openings, made here (cutting the HTML in SQL was half the fill's
    // time); the rest of each row is written below by the triggers' own function.
    await copyRows(
      database,
      'manuscript_search (manuscript_id, document, title_key, author_key, opening, listed, visibility, category, nsfw, flagged, owner_id, created_at)',
      ids.map((id, index) => [
        id,
        '',
        '',
        '',
        openings[index]!.text,
        false,
        'public',
        categories[index]!,
        false,
        false,
        owners[index]!,
        created[index]!.toISOString(),
      ]),
    );
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
    await copyRows(database, 'manuscript_genres (manuscript_id, genre_id)', links);
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
  phase('rows written', writing);
  // The search rows, by the very function the triggers call (keeping the openings written
  // above), ten thousand a statement; on PostgreSQL two statements at a time (after the first,
  // which meets most title and name words first, so the two rarely insert the same word).
  const searching = performance.now();
  const step = 10_000;
  const chunks: Array<[number, number]> = [];
  for (let from = firstManuscript; from < firstManuscript + count; from += step) {
    chunks.push([from, Math.min(from + step, firstManuscript + count) - 1]);
  }
  let done = 0;
  const refresh = async ([from, last]: [number, number]): Promise<void> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.execute(sql`select margins_search_refresh_many(
          array(select generate_series(${from}::integer, ${last}::integer)), false)`);
        break;
      } catch (error) {
        // Two chunks inserting the same new words the other way round: run it again.
        if (attempt >= 3 || !/deadlock/i.test(String(error))) throw error;
      }
    }
    done += last + 1 - from;
    if (done % 20_000 === 0 || done === count) log(`  search rows ${done.toLocaleString()}`);
  };
  const [first, ...rest] = chunks;
  if (first) await refresh(first);
  const lanes = database.kind === 'postgres' ? 2 : 1;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let chunk = rest.shift(); chunk; chunk = rest.shift()) await refresh(chunk);
    }),
  );
  // The openings made here are the triggers' own: checked on a sample.
  const differing = (
    (await db.execute(sql`
      select count(*)::integer as n from manuscript_search s
      join manuscripts m on m.id = s.manuscript_id
      join manuscript_versions v on v.id = m.current_version_id
      where s.manuscript_id in (
        select generate_series(${firstManuscript}::integer, ${firstManuscript + count - 1}::integer, 97))
        and s.opening <> margins_opening_text(v.html)`)) as unknown as {
      rows: Array<{ n: number }>;
    }
  ).rows[0]!.n;
  if (differing > 0) throw new Error(`${differing} openings differ from margins_opening_text`);
  phase('search rows written', searching);
  const indexing = performance.now();
  await db.execute(
    sql.raw(`set maintenance_work_mem = '${database.kind === 'postgres' ? '512MB' : '256MB'}'`),
  );
  for (const index of searchIndexes) await db.execute(sql.raw(index.indexdef));
  await db.execute(sql`reset maintenance_work_mem`);
  phase('search indexes built', indexing);
  const analysing = performance.now();
  await db.execute(sql`vacuum analyze`);
  phase('vacuumed and analysed', analysing);
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
    await fillDiscover(database, count);
    await database.close();
  }
}
