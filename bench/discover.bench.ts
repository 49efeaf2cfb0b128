// Discover's search at scale: N public manuscripts (default 100,000), then a mix of searches
// as POST /discover/ runs them (the service the route calls, on the real search SQL):
// one word, two words, a phrase, misspelt words, genre- and category-filtered, page 1 and 50.
//   npx tsx bench/discover.bench.ts [count=100000]                 # the embedded database
//   DATABASE_URL=postgres://… npx tsx bench/discover.bench.ts      # PostgreSQL (an empty db)
// Prints p50/p95/p99 per kind and overall, against the targets (p95 < 60 ms embedded,
// < 20 ms PostgreSQL), and the plan of the slowest search.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { discoverRequest } from '@margins/common';
import { openDatabase } from '../server/src/db/index.ts';
import { search } from '../server/src/modules/discover/service.ts';
import { fillDiscover } from './discover-fill.ts';

const count = Number(process.argv[2] ?? 100_000);
// BENCH_DATA_DIR keeps the filled embedded database for the next run (filling takes minutes).
const keptDir = process.env.BENCH_DATA_DIR;
const dataDir = process.env.DATABASE_URL
  ? null
  : (keptDir ?? mkdtempSync(path.join(tmpdir(), 'discover-')));
const database = await openDatabase(
  process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: dataDir! },
);
const { db } = database;
const kind = database.kind;
console.log(`Discover benchmark: ${count.toLocaleString()} manuscripts on ${kind}`);
// A database filled by an earlier run (or by discover-fill.ts) is searched as it is.
const filled = Number(
  (
    (await db.execute(
      sql`select count(*) as n from users where email = 'author1@bench.test'`,
    )) as unknown as { rows: Array<{ n: number | string }> }
  ).rows[0]!.n,
);
if (filled === 0) await fillDiscover(db, count);
const genres = (
  (await db.execute(sql`select id from genres order by id limit 3`)) as unknown as {
    rows: Array<{ id: number }>;
  }
).rows.map((row) => row.id);

const QUERIES: Record<string, Array<Record<string, unknown>>> = {
  'one word': [{ q: 'dragon' }, { q: 'harbour' }, { q: 'violin' }, { q: 'meridian' }],
  'two words': [{ q: 'salt dragon' }, { q: 'quiet harbour' }, { q: 'amber violin' }],
  phrase: [{ q: '"the storm came in sideways"' }, { q: '"silver lantern"' }],
  misspelt: [{ q: 'dargon' }, { q: 'lighthuose' }, { q: 'cartogrpher' }, { q: 'marchetii' }],
  'genre-filtered': [
    { q: 'dragon', genre_ids: [genres[0]] },
    { q: '', genre_ids: [genres[1], genres[2]] },
    { q: 'river', fs: 'poetry' },
  ],
  'page 50': [
    { q: '', page: 50 },
    { q: 'storm', page: 50 },
    { q: 'tide', page: 50, sort: 'newest' },
  ],
  sorts: [
    { q: 'ferry', sort: 'most_read' },
    { q: '', sort: 'most_commented' },
  ],
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const ROUNDS = 15;
const all: number[] = [];
let slowest = { ms: 0, query: {} as Record<string, unknown> };
// Warm-up: the first search of each kind loads dictionaries and plans.
for (const list of Object.values(QUERIES))
  for (const query of list) await search(db, null, discoverRequest.parse(query));
console.log('\nkind              p50 ms   p95 ms   p99 ms   results (first query)');
for (const [label, list] of Object.entries(QUERIES)) {
  const times: number[] = [];
  let total = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const query of list) {
      const started = performance.now();
      const result = await search(db, null, discoverRequest.parse(query));
      const ms = performance.now() - started;
      times.push(ms);
      all.push(ms);
      if (round === 0 && query === list[0]) total = result.total;
      if (ms > slowest.ms) slowest = { ms, query };
    }
  }
  console.log(
    `${label.padEnd(16)} ${percentile(times, 50).toFixed(1).padStart(7)}  ${percentile(times, 95).toFixed(1).padStart(7)}  ${percentile(times, 99).toFixed(1).padStart(7)}   ${total.toLocaleString()}`,
  );
}
const target = kind === 'pglite' ? 60 : 20;
const p95 = percentile(all, 95);
console.log(
  `\nall searches: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms` +
    ` — target p95 < ${target} ms: ${p95 < target ? 'met' : 'NOT met'} (ratio ${(p95 / target).toFixed(2)})`,
);

// The plan of the slowest search's main statement: its text as the service builds it.
console.log(`\nslowest: ${JSON.stringify(slowest.query)} ${slowest.ms.toFixed(1)} ms; its plan:`);
const captured: string[] = [];
const { db: plainDb } = database;
const original = plainDb.execute.bind(plainDb);
(plainDb as unknown as { transaction: unknown }).transaction = async (
  run: (tx: unknown) => Promise<unknown>,
) =>
  original(sql`begin`).then(async () => {
    const tx = {
      execute: async (query: Parameters<typeof original>[0]) => {
        const result = await original(sql`explain (analyze, costs off) ${query}`);
        captured.push(
          (result as unknown as { rows: Array<Record<string, string>> }).rows
            .map((row) => Object.values(row)[0])
            .join('\n'),
        );
        return original(query);
      },
    };
    try {
      return await run(tx);
    } finally {
      await original(sql`commit`);
    }
  });
await search(plainDb, null, discoverRequest.parse(slowest.query));
console.log(captured.at(-1));
const seqScan = /Seq Scan on manuscripts\b/.test(captured.at(-1) ?? '');
console.log(`sequential scan of the manuscripts table: ${seqScan ? 'YES' : 'no'}`);

await database.close();
if (dataDir && !keptDir) rmSync(dataDir, { recursive: true, force: true });
