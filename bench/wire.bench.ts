// Fast on the wire (issue 11 items 1, 2): the ~150k-word test novel with 2,000 comments.
//   npm run build && npx tsx bench/wire.bench.ts [seconds=5]
// Prints, against ceilings measured in the same run (a bare Node `http` server answering the
// same bytes and headers, on the same machine and the same client loop):
//   - reader JSON and comments list: req/s ratio and p99 at 10 keep-alive connections;
//   - bytes on the wire to open the manuscript in Chromium, cold and warm (304s).
// (The start time and idle RSS, item 4: bench/start.bench.ts.)
// Also the same two for a client that takes no compression (curl, a script: no Accept-Encoding),
// and, with BENCH_UNRELATED_WRITES=N, while N writes a second land on a table neither answer
// reads (the waiting list): they must not drop the kept answers. BENCH_DATABASE_URL runs it on a
// PostgreSQL server (bench/embedded-db.ts).
// Ports: BENCH_PORT (3231) for the app, +1 for the ceiling. On a
// shared machine the absolute numbers are noisy; the ratios within one run are what to compare.
import { sql } from 'drizzle-orm';
import { chromium } from '@playwright/test';
import { CSRF_COOKIE } from '@margins/common';
import { percentile, round } from './realtime-support.ts';
import { startReaderBook } from './reader-book.ts';
import { httpClient, startCeiling, type Captured } from './http-bench.ts';

const seconds = Number(process.argv[2] ?? 5);
const port = Number(process.env.BENCH_PORT ?? 3231);
const CONNECTIONS = 10;
const CSRF = 'bench-csrf-token-bench-csrf-token';
const get = httpClient(CONNECTIONS);

/** CONNECTIONS loops asking `url` for `seconds`: answers per second and latency p99 (ms). */
async function load(url: string, headers: Record<string, string>) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const answer = await get(url, headers);
        if (answer.status !== 200) failures++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  if (failures > 0) throw new Error(`${url}: ${failures} answers were not 200`);
  return { rps: latencies.length / seconds, p99: percentile(latencies, 99) };
}

/** The ceiling: a bare Node server answering each path with the captured bytes and headers. */

/** Bytes Chromium received (headers and bodies, as encoded on the wire) for one page load. */
async function wireBytes(
  page: import('@playwright/test').Page,
  url: string,
): Promise<{ total: number; byType: Record<string, number>; notModified: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, string>();
  const byType: Record<string, number> = {};
  let total = 0;
  let notModified = 0;
  cdp.on('Network.responseReceived', (event) => {
    types.set(event.requestId, event.type);
    if (event.response.status === 304) notModified++;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId) ?? 'Other';
    byType[type] = (byType[type] ?? 0) + event.encodedDataLength;
    total += event.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  await page.waitForSelector('mark, [data-hl]', { timeout: 120_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { total, byType, notModified };
}

const book = await startReaderBook(port, 2000);
// As a browser sends them: the session and the CSRF cookie its first answer set (without it
// every answer would set a fresh one, which no reader's browser asks for).
const cookie = `${book.cookie.name}=${book.cookie.value}; ${CSRF_COOKIE}=${CSRF}`;
const readerPath = `/manuscript/document/reader/${book.manuscriptId}`;
const commentsPath = `/comments/manuscript/${book.manuscriptId}`;
const json = { cookie, accept: 'application/json', 'accept-encoding': 'br, gzip' };
const plain = { cookie, accept: 'application/json' };
const rows: Array<[string, string, string, string]> = [];
const unrelatedPerSecond = Number(process.env.BENCH_UNRELATED_WRITES ?? 0);
let writing = unrelatedPerSecond > 0;
const unrelated = (async () => {
  for (let index = 0; writing; index++) {
    const email = `unrelated-${index}@example.test`;
    await book.database.db.execute(sql`insert into waiting_list (email) values (${email})`);
    await book.database.db.execute(sql`delete from waiting_list where email = ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 2000 / unrelatedPerSecond));
  }
})();
try {
  for (const [encoding, headers] of [
    ['br', json],
    ['none', plain],
  ] as const) {
    const answers = new Map<string, Captured>();
    for (const url of [readerPath, commentsPath]) {
      const answer = await get(`${book.baseUrl}${url}`, headers);
      if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
      answers.set(url, answer);
    }
    const ceiling = await startCeiling(answers, port + 1);
    const ceilingBase = `http://127.0.0.1:${port + 1}`;
    for (const [name, url, target] of [
      ['reader JSON', readerPath, 0.5],
      ['comments list', commentsPath, 0.25],
    ] as const) {
      const ours = await load(`${book.baseUrl}${url}`, headers);
      const bare = await load(`${ceilingBase}${url}`, headers);
      const bytes = answers.get(url)!.body.length;
      const sent = answers.get(url)!.headers['content-encoding'] ?? 'uncompressed';
      rows.push([
        `${name} (${round(bytes / 1024)} kB ${sent}${encoding === 'none' ? ', asked for none' : ''})`,
        `${round(ours.rps)} req/s, p99 ${round(ours.p99)} ms`,
        `${round(bare.rps)} req/s, p99 ${round(bare.p99)} ms`,
        `${round(ours.rps / bare.rps, 2)} (target ≥ ${target})`,
      ]);
    }
    ceiling.close();
  }

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext();
    await context.addCookies([
      { ...book.cookie, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    const cold = await wireBytes(page, `${book.baseUrl}${readerPath}`);
    const warm = await wireBytes(page, `${book.baseUrl}${readerPath}`);
    const kb = (value: number) => `${round(value / 1024)} kB`;
    const parts = (byType: Record<string, number>) =>
      Object.entries(byType)
        .map(([type, value]) => `${type} ${kb(value)}`)
        .join(', ');
    rows.push(['open cold (page, JS, CSS, data)', kb(cold.total), parts(cold.byType), '≤ 900 kB']);
    rows.push([
      // Chromium reports a revalidated answer by its cached status (200): the bytes tell.
      'open warm (cached, revalidated)',
      kb(warm.total),
      parts(warm.byType),
      '≤ 50 kB',
    ]);
  } finally {
    await browser.close();
  }
} finally {
  writing = false;
  await unrelated;
  await book.close();
  get.close();
}

console.log(
  `${book.database.kind}: ${book.words} words, ${book.highlights} comments; ${CONNECTIONS} ` +
    `connections, ${seconds} s each; ${unrelatedPerSecond} unrelated writes/s`,
);
console.log(['what', 'Margins', 'ceiling / detail', 'ratio / target'].join(' | '));
for (const row of rows) console.log(row.join(' | '));
process.exit(0);
