// The reader JSON, the comments list and comment creates under load (issue 11), without the
// browser and start-up parts of wire.bench.ts: quick to run, and to profile.
//   npx tsx bench/comments-load.bench.ts [seconds=5] [parts=reader,list,create]
//   CPU_PROFILE=/tmp/list.cpuprofile npx tsx bench/comments-load.bench.ts 5 list
// (CPU_PROFILE: a V8 profile of this process over the load phases only, for cpu-profile-top.ts.)
// Prints req/s and p99 at 10 keep-alive connections for each part (the reader JSON and the
// list also against a bare Node `http` ceiling answering the same bytes, as wire.bench.ts), and
// for creates the p99 of 10 readers each posting comments one after another on the 150k-word
// book with 2,000 comments. The server shares this process: a profile shows both sides.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { CSRF_COOKIE, CSRF_HEADER } from '@margins/common';
import { createPeople, percentile, round } from './realtime-support.ts';
import { startReaderBook } from './reader-book.ts';
import { httpClient, startCeiling, type Captured } from './http-bench.ts';

const seconds = Number(process.argv[2] ?? 5);
const parts = new Set((process.argv[3] ?? 'reader,list,create').split(','));
const port = Number(process.env.BENCH_PORT ?? 3236);
const CONNECTIONS = 10;
const CSRF = 'bench-csrf-token-bench-csrf-token';
const call = httpClient(CONNECTIONS);

const profiles: unknown[] = [];
const profiler = process.env.CPU_PROFILE ? new Session() : null;
profiler?.connect();
await profiler?.post('Profiler.enable');

/** CONNECTIONS loops calling `next(connection, n)` for `seconds`: answers/s and p99 (ms). */
async function load(
  next: (connection: number, n: number) => Promise<Captured>,
  ours = true,
  duration = seconds,
) {
  if (ours) await profiler?.post('Profiler.start');
  const latencies: number[] = [];
  const until = performance.now() + duration * 1000;
  let failure: string | null = null;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, connection) => {
      for (let n = 0; performance.now() < until; n++) {
        const started = performance.now();
        const answer = await next(connection, n);
        if (answer.status !== 200) failure = `${answer.status} ${answer.body.toString()}`;
        latencies.push(performance.now() - started);
      }
    }),
  );
  if (ours) profiles.push((await profiler?.post('Profiler.stop'))?.profile);
  if (failure) throw new Error(`an answer was not 200: ${failure}`);
  return { rps: latencies.length / duration, p99: percentile(latencies, 99) };
}

const book = await startReaderBook(port, 2000);
// As a browser sends them: the session and the CSRF cookie the first answer set.
const cookie = `${book.cookie.name}=${book.cookie.value}; ${CSRF_COOKIE}=${CSRF}`;
const json = { cookie, accept: 'application/json', 'accept-encoding': 'br, gzip' };
const rows: string[] = [];
try {
  const targets = [
    ['reader', 'reader JSON', `/manuscript/document/reader/${book.manuscriptId}`, 0.5],
    ['list', 'comments list', `/comments/manuscript/${book.manuscriptId}`, 0.25],
  ] as const;
  for (const [part, name, url, target] of targets) {
    if (!parts.has(part)) continue;
    const first = await call(`${book.baseUrl}${url}`, json);
    if (first.status !== 200) throw new Error(`${url}: ${first.status}`);
    const ceiling = await startCeiling(new Map([[url, first]]), port + 1);
    const ours = await load(() => call(`${book.baseUrl}${url}`, json));
    const bare = await load(() => call(`http://127.0.0.1:${port + 1}${url}`, json), false);
    ceiling.close();
    rows.push(
      `${name} (${round(first.body.length / 1024)} kB ${first.headers['content-encoding']}) | ` +
        `${round(ours.rps)} req/s, p99 ${round(ours.p99)} ms | ` +
        `ceiling ${round(bare.rps)} req/s, p99 ${round(bare.p99)} ms | ` +
        `${round(ours.rps / bare.rps, 2)} (target ≥ ${target})`,
    );
  }
  if (parts.has('create')) {
    const people = await createPeople(book.database, CONNECTIONS, 'reader');
    const url = `${book.baseUrl}/comments/manuscript/${book.manuscriptId}`;
    const create = (connection: number, n: number) =>
      call(
        url,
        {
          cookie: `${people[connection]!.cookie}; ${CSRF_COOKIE}=${CSRF}`,
          [CSRF_HEADER]: CSRF,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        'POST',
        JSON.stringify({
          highlight: { selection_id: `bench-${(connection * 97 + n * 13) % book.highlights}` },
          comment: `A reader's note ${connection}-${n}: this line sings.`,
        }),
      );
    // A second of creates first, not counted: the first writes of a fresh server (code paths
    // compiled, the readers' rate-limit rows, the job queue's first dispatch) are not the steady state.
    await load((connection, n) => create(connection, n + 1_000), false, 1);
    const created = await load(create);
    rows.push(
      `comment create (10 readers, one after another each) | ${round(created.rps)} req/s, ` +
        `p99 ${round(created.p99)} ms | — | p99 target: well under ~400 ms`,
    );
  }
} finally {
  await book.close();
  call.close();
}

console.log(
  `${book.words} words, ${book.highlights} comments; ${CONNECTIONS} connections, ${seconds} s each`,
);
for (const row of rows) console.log(row);

if (process.env.CPU_PROFILE) writeFileSync(process.env.CPU_PROFILE, JSON.stringify(profiles[0]));
process.exit(0);
