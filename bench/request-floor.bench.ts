// The request floor of kept answers (issue 11): CPU time per repeated reader JSON and comments
// list request, against a bare Node `http` server answering the same bytes and headers.
//   npm run build -w web && npx tsx bench/request-floor.bench.ts [requests per round=1000]
// wire.bench.ts measures req/s, which on a shared machine moves with everyone else's load; this
// counts the CPU this process spent per answer (client and server share it, one connection,
// one request at a time), which others' load barely moves. ceiling CPU / ours ≈ the req/s ratio
// of an idle machine. Ports: BENCH_PORT (3241) for the app, +1 for the ceiling.
import http from 'node:http';
import { CSRF_COOKIE } from '@margins/common';
import { round } from './realtime-support.ts';
import { startReaderBook } from './reader-book.ts';

const requests = Number(process.argv[2] ?? 1000);
const port = Number(process.env.BENCH_PORT ?? 3241);
const CSRF = 'bench-csrf-token-bench-csrf-token';
const ROUNDS = 7;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
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

function startCeiling(answers: Map<string, Captured>): Promise<http.Server> {
  const kept = ['content-type', 'content-encoding', 'etag', 'cache-control', 'vary'];
  const server = http.createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    for (const name of kept) {
      if (answer.headers[name]) response.setHeader(name, answer.headers[name]);
    }
    response.setHeader('content-length', answer.body.length);
    response.end(answer.body);
  });
  return new Promise((resolve) => server.listen(port + 1, '127.0.0.1', () => resolve(server)));
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
  const ceiling = await startCeiling(answers);
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
  agent.destroy();
}
console.log(
  `${ROUNDS} rounds of ${requests} requests each, one connection; CPU of this process per answer (median round)`,
);
console.log('what | Margins | ceiling | ceiling / Margins | floor above the ceiling');
for (const row of rows) console.log(row);
process.exit(0);
