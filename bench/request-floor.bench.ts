// The request floor of kept answers (issue 11): CPU time per repeated reader JSON and comments
// list request, against a bare Node `http` server answering the same bytes and headers.
//   npm run build -w web && npx tsx bench/request-floor.bench.ts [requests per round=1000]
// wire.bench.ts measures req/s, which on a shared machine moves with everyone else's load; this
// counts the CPU this process spent per answer (client and server share it, one connection,
// one request at a time), which others' load barely moves. ceiling CPU / ours ≈ the req/s ratio
// of an idle machine. Ports: BENCH_PORT (3241) for the app, +1 for the ceiling.
import { CSRF_COOKIE } from '@margins/common';
import { round } from './realtime-support.ts';
import { startReaderBook } from './reader-book.ts';
import { httpClient, startCeiling, type Captured } from './http-bench.ts';

const requests = Number(process.argv[2] ?? 1000);
const port = Number(process.env.BENCH_PORT ?? 3241);
const CSRF = 'bench-csrf-token-bench-csrf-token';
const get = httpClient(1);
const ROUNDS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU µs this process spends per answer of `url`, asked `requests` times one after another. */
async function cpuPerRequest(url: string, headers: Record<string, string>): Promise<number> {
  for (let i = 0; i < 100; i++) await get(url, headers); // warm up (JIT, caches)
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const answer = await get(url, headers);
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const book = await startReaderBook(port, 2000);
// As a browser sends them: the session and the CSRF cookie its first answer set.
const cookie = `${book.cookie.name}=${book.cookie.value}; ${CSRF_COOKIE}=${CSRF}`;
const json = { cookie, accept: 'application/json', 'accept-encoding': 'br, gzip' };
const rows: string[] = [];
try {
  const paths = {
    'reader JSON': `/manuscript/document/reader/${book.manuscriptId}`,
    'comments list': `/comments/manuscript/${book.manuscriptId}`,
  };
  const answers = new Map<string, Captured>();
  for (const path of Object.values(paths)) answers.set(path, await get(book.baseUrl + path, json));
  const ceiling = await startCeiling(answers, port + 1);
  for (const [name, path] of Object.entries(paths)) {
    // Rounds taken in turn, the median of each side: a burst of others' load spoils one round.
    const oursRounds: number[] = [];
    const bareRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      oursRounds.push(await cpuPerRequest(book.baseUrl + path, json));
      bareRounds.push(await cpuPerRequest(`http://127.0.0.1:${port + 1}${path}`, json));
    }
    const ours = median(oursRounds);
    const bare = median(bareRounds);
    rows.push(
      `${name} | ${round(ours)} µs | ${round(bare)} µs | ${round(bare / ours, 2)} | ` +
        `${round(ours - bare)} µs`,
    );
  }
  ceiling.close();
} finally {
  await book.close();
  get.close();
}
console.log(
  `${ROUNDS} rounds of ${requests} requests each, one connection; CPU of this process per answer (median round)`,
);
console.log('what | Margins | ceiling | ceiling / Margins | floor above the ceiling');
for (const row of rows) console.log(row);
process.exit(0);
