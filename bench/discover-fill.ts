// Fills a database with N public manuscripts for the Discover benchmark (and by hand:
//   DATABASE_URL=postgres://… npx tsx bench/discover-fill.ts 100000
// fills that database; without DATABASE_URL it prints what it would need). Text is generated
// in SQL from word and sentence lists (titles of two to four words, summaries, ~300 words of
// opening), authors with accented names, genres across the three categories. The search
// triggers are switched off for the load and the search rows written in bulk afterwards by
// the same function the triggers call (margins_search_refresh_many), in chunks.
import { sql } from 'drizzle-orm';
import type { Db } from '../server/src/db/index.ts';
import { seedGenres } from '../server/src/seed/index.ts';

const WORDS = [
  'salt',
  'hollow',
  'silver',
  'drowned',
  'paper',
  'quiet',
  'amber',
  'winter',
  'borrowed',
  'crooked',
  'midnight',
  'dragon',
  'lighthouse',
  'orchard',
  'cartographer',
  'ledger',
  'harbour',
  'violin',
  'garden',
  'archive',
  'comet',
  'ferry',
  'kingdom',
  'river',
  'lantern',
  'glass',
  'orphan',
  'storm',
  'mirror',
  'falcon',
  'desert',
  'island',
  'letters',
  'bones',
  'tide',
  'meridian',
  'cathedral',
  'widow',
  'thief',
  'compass',
  'atlas',
  'furnace',
  'orchid',
  'saint',
  'railway',
  'summer',
  'ashes',
  'crown',
  'wolves',
  'honey',
  'ember',
  'marsh',
  'siren',
  'clock',
];
const SENTENCES = [
  'The lamps along the quay went out one by one, as if someone were counting them.',
  'She kept the letters in a biscuit tin and read them only when it rained.',
  'Nobody in the village remembered who had planted the orchard.',
  'He measured the coastline twice and got two different answers, and believed both.',
  'The map was wrong in exactly one place, and that was where the story began.',
  'By morning the tide had taken the road, and the island belonged to itself again.',
  'There is a kind of silence that only old libraries know how to keep.',
  'Grief, it turned out, had a timetable, and it ran later than the ferries.',
  'Every ledger tells a story, if you know which numbers are lying.',
  'The storm came in sideways, carrying salt and the smell of burnt sugar.',
  'Her brother sold clocks that ran backwards to tourists who never noticed.',
  'The cathedral bells had been silent for forty years until the night of the flood.',
];
const NAMES = [
  'Éloïse',
  'Kwame',
  'Inês',
  'Haruto',
  'Maeve',
  'Zoë',
  'Björn',
  'Amara',
  'Tomás',
  'Noor',
  'Søren',
  'Chiara',
  'Dmitri',
  'Aoife',
  'José',
  'Leilani',
  'Mateus',
  'Ngozi',
  'Renée',
  'Yusuf',
];
const SURNAMES = [
  'Marchetti',
  'Asante',
  'Duarte',
  'Sato',
  "O'Brien",
  'Lindqvist',
  'Okafor',
  'Reyes',
  'Haddad',
  'Kowalski',
  'Moreau',
  'Novak',
  'Fairweather',
  'Quill',
  'Ibáñez',
  'Nakamura',
  'Brennan',
];

/** Pronounceable made-up words, so the vocabulary is large without a dictionary file. */
const SYLLABLES = [
  'ka',
  'lo',
  'mer',
  'ti',
  'ran',
  'sel',
  'vo',
  'dun',
  'ash',
  'bri',
  'co',
  'fen',
  'gal',
  'hol',
  'ist',
  'jor',
  'kel',
  'lum',
  'mor',
  'nev',
  'ost',
  'pra',
  'quin',
  'rel',
  'sta',
  'tor',
  'ul',
  'ven',
  'wyr',
  'yel',
  'zan',
  'bel',
  'cor',
  'dra',
  'el',
  'fal',
];
// The theme words last: drawn log-uniformly, a word near the end is in ~1% of texts (as
// "dragon" is in few books), the made-up words near the start in most.
const VOCABULARY = [
  ...Array.from({ length: 3000 - WORDS.length }, (_, index) => {
    const a = SYLLABLES[index % SYLLABLES.length]!;
    const b = SYLLABLES[Math.floor(index / SYLLABLES.length) % SYLLABLES.length]!;
    const c = SYLLABLES[Math.floor(index / SYLLABLES.length ** 2) % SYLLABLES.length]!;
    return index < SYLLABLES.length ** 2 ? a + b : a + b + c;
  }),
  ...WORDS,
];

const textArray = (items: string[]) =>
  sql.raw(`ARRAY[${items.map((item) => `'${item.replace(/'/g, "''")}'`).join(',')}]::text[]`);

/** Writes `count` public manuscripts (and their authors) into an empty, migrated database. */
export async function fillDiscover(db: Db, count: number, log = console.log): Promise<void> {
  const started = performance.now();
  await db.transaction(async (tx) => seedGenres(tx));
  const authors = Math.max(10, Math.round(count / 50));
  await db.execute(sql`
    insert into users (email, password_hash, display_name, handle, signup_completed_at)
    select 'author' || n || '@bench.test', '!',
           (${textArray(NAMES)})[1 + n % ${NAMES.length}] || ' ' || (${textArray(SURNAMES)})[1 + (n / ${NAMES.length}) % ${SURNAMES.length}],
           'author_' || n, now()
    from generate_series(1, ${authors}::integer) as n`);
  for (const table of ['manuscripts', 'manuscript_genres']) {
    await db.execute(sql.raw(`alter table ${table} disable trigger user`));
  }
  const chunk = 10_000;
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk);
    await db.execute(sql`
      with words as (select ${textArray(WORDS)} as w, ${textArray(SENTENCES)} as s)
      insert into manuscripts (user_id, title, summary, visibility, category, nsfw, inking, words, created_at)
      select (select min(id) from users) + (n * 7919) % ${authors}::integer,
             initcap(array_to_string(array(
               select w[1 + ((n * 31 + k * 17 + (n / 7) * k) % array_length(w, 1))]
               from generate_series(1, 2 + n % 3) as k), ' ')),
             s[1 + n % array_length(s, 1)],
             'public',
             (array['fiction','non-fiction','poetry'])[1 + n % 3],
             n % 23 = 0, false, 300,
             now() - make_interval(mins => n)
      from words, generate_series(${from + 1}::integer, ${to}::integer) as n`);
    log(`  manuscripts ${to.toLocaleString()} / ${count.toLocaleString()}`);
  }
  // ~300 words of opening a manuscript: one of the sentences (so phrases match ~1 in 12), then
  // words drawn log-uniformly from a 3,000-word vocabulary (a few words in most texts, most
  // words in few: roughly Zipf's law), as real books' words are.
  await db.execute(sql`
    insert into manuscript_versions (manuscript_id, number, source_format, file_name, html, toc, words)
    select m.id, 1, 'html', 'bench.html',
           '<h1 id="c1">Chapter One</h1><p id="p1">' || s[1 + m.id % array_length(s, 1)] || ' '
             || array_to_string(array(
               select v[least(array_length(v, 1), greatest(1,
                 floor(power(array_length(v, 1), (abs(hashint4(m.id * 401 + k)) % 10000) / 10000.0))::integer))]
               from generate_series(1, 300) as k), ' ') || '</p>',
           '[{"id":"c1","level":1,"text":"Chapter One"}]'::jsonb, 300
    from manuscripts m,
         (select ${textArray(SENTENCES)} as s, ${textArray(VOCABULARY)} as v) words
    where m.current_version_id is null`);
  await db.execute(sql`
    update manuscripts m set current_version_id = v.id
    from manuscript_versions v where v.manuscript_id = m.id and m.current_version_id is null`);
  await db.execute(sql`
    insert into manuscript_genres (manuscript_id, genre_id)
    select distinct m.id, g.id
    from manuscripts m
    join genre_categories c on c.name = m.category
    join lateral (
      select id from genres where category_id = c.id order by (id * 7 + m.id) % 13 limit 2
    ) g on true`);
  for (const table of ['manuscripts', 'manuscript_genres']) {
    await db.execute(sql.raw(`alter table ${table} enable trigger user`));
  }
  log(`  rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; search rows …`);
  const ids = (await db.execute(sql`select id from manuscripts order by id`)) as unknown as {
    rows: Array<{ id: number }>;
  };
  const all = ids.rows.map((row) => row.id);
  for (let index = 0; index < all.length; index += 5_000) {
    const part = all.slice(index, index + 5_000);
    await db.execute(
      sql`select margins_search_refresh_many(${`{${part.join(',')}}`}::integer[], true)`,
    );
    log(`  search rows ${Math.min(index + 5_000, all.length).toLocaleString()}`);
  }
  await db.execute(sql`analyze`);
  log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
