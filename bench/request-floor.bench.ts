// The per-request floor (issue 15's progress-write target, and every request's share of #11/#17):
// GET /healthz on a real listening server (PGlite), anonymous and by a logged-in client, with
// the session cache on and off.
//   npx tsx bench/request-floor.bench.ts [seconds=5]
// The load comes from a child process (CONNECTIONS keep-alive loops), so the server's event loop
// is its own: printed per answer are the server's event-loop busy time and CPU time, req/s and
// p50/p99 latency. Port BENCH_PORT (3241). On a shared machine the absolute numbers are noisy;
// compare the rows of one run.
import { fork } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { SESSION_COOKIE, CSRF_COOKIE } from '@margins/common';
import { sessionCacheOf } from '../server/src/modules/auth/session-cache.ts';
import { changeListenerOf } from '../server/src/db/change-listener.ts';
import { clientFor } from '../server/src/modules/invites/test-helpers.ts';
import { buildUser } from '../server/src/test/factories.ts';
import { createTestApp } from '../server/src/test/harness.ts';

const CONNECTIONS = 10;
const TARGET_MS = 1;

interface LoadResult {
  count: number;
  failures: number;
  latencies: number[];
}

if (process.argv[2] === '--client') {
  // The child: CONNECTIONS loops asking the URL for the given seconds.
  const [, , , url, seconds, cookie] = process.argv;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cookie) headers.cookie = cookie;
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const request = http.get(url!, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
    });
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + Number(seconds) * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        if ((await get()) !== 200) failures++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  agent.destroy();
  process.send!({ count: latencies.length, failures, latencies } satisfies LoadResult);
  process.exit(0);
}

const seconds = Number(process.argv[2] ?? 5);
const port = Number(process.env.BENCH_PORT ?? 3241);
const test = await createTestApp();
await changeListenerOf(test.ctx).start();
await test.app.listen({ port, host: '127.0.0.1' });
const user = await buildUser(test.ctx.db);
const client = await clientFor(test, user);
await client.get('/healthz'); // the CSRF cookie, as a browser has it
const loggedIn = [SESSION_COOKIE, CSRF_COOKIE]
  .map((name) => `${name}=${client.cookies.get(name)}`)
  .join('; ');
const url = `http://127.0.0.1:${port}/healthz`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Loads /healthz from a child process; the server's busy and CPU time per answer. */
async function run(label: string, cookie: string) {
  const child = fork(import.meta.filename, ['--client', url, String(seconds), cookie], {
    execArgv: ['--import', 'tsx'],
  });
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const result = await new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoadResult));
    child.once('error', reject);
  });
  const busy = performance.eventLoopUtilization(elu).active / result.count;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / result.count;
  if (result.failures > 0) throw new Error(`${label}: ${result.failures} answers were not 200`);
  console.log(
    `${label.padEnd(34)} ${String(Math.round(result.count / seconds)).padStart(6)} req/s` +
      `  p50 ${percentile(result.latencies, 50).toFixed(2)} ms  p99 ${percentile(result.latencies, 99).toFixed(2)} ms` +
      `  server busy ${busy.toFixed(3)} ms/req (ratio to ${TARGET_MS} ms: ${(busy / TARGET_MS).toFixed(2)})` +
      `  CPU ${cpuMs.toFixed(3)} ms/req`,
  );
  return busy;
}

console.log(
  `GET /healthz, ${CONNECTIONS} keep-alive connections from a child process, ${seconds} s each`,
);
await run('warm-up', loggedIn);
const anonymous = await run('anonymous', '');
const cached = await run('logged in (session cache on)', loggedIn);
// The cache closed: every request reads its session from the database, as before it existed.
sessionCacheOf(test.ctx).close();
const uncached = await run('logged in (session cache off)', loggedIn);
console.log(
  `\nthe session cache saves ${(uncached - cached).toFixed(3)} ms of event loop a logged-in request;` +
    ` logged in costs ${(cached - anonymous).toFixed(3)} ms more than anonymous with it`,
);
console.log('(The machine is shared: these numbers are noisy.)');
await test.close();
