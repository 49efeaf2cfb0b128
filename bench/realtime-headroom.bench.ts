// Headroom (issue 17 item 5): readers in one room while commenters each write one comment a
// second, with /healthz asked every 100 ms meanwhile.
//   npx tsx bench/realtime-headroom.bench.ts [seconds=60] [readers=300] [commenters=50] [--cpu-prof]
// The server runs in a child process on PGlite in a temporary data dir (so this thread can time /healthz
// without sharing its event loop); with --cpu-prof it writes a V8 profile to
// bench/profiles/ (summarise it: npx tsx bench/cpu-profile-top.ts <file>). The clients run in
// two worker threads. Target on this machine: delivery p99 < 250 ms, /healthz p99 < 100 ms,
// 0 lost. BENCH_PORT (optional) is the server's port.
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { ClientReport, ClientTask } from './realtime-clients.ts';
import { nextMessage, now, percentile, round, startWorker } from './realtime-support.ts';

const WORKERS = 2;
const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const seconds = Number(args[0] ?? 60);
const readerCount = Number(args[1] ?? 300);
const commenterCount = Number(args[2] ?? 50);
const profile = process.argv.includes('--cpu-prof');
const profileDir = new URL('./profiles/', import.meta.url).pathname;

if (profile) mkdirSync(profileDir, { recursive: true });
const child = fork(new URL('./realtime-server.ts', import.meta.url), {
  execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  env: { ...process.env, DATABASE_URL: '' },
});
process.once('exit', () => child.kill());
const nextFromChild = <T>(type: string) =>
  new Promise<T>((resolve, reject) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
const { baseUrl } = await nextFromChild<{ baseUrl: string }>('listening');
const total = readerCount + commenterCount;
child.send({ type: 'setup', people: total });
const { manuscriptId, cookies } = await nextFromChild<{ manuscriptId: number; cookies: string[] }>(
  'setup',
);
console.log(
  `headroom: ${readerCount} readers + ${commenterCount} commenters (one comment a second each) ` +
    `in one room for ${seconds} s, PGlite, one server process${profile ? ', --cpu-prof' : ''}`,
);

const started = Date.now();
const workers: Worker[] = [];
for (let index = 0; index < WORKERS; index++) {
  const mine = cookies.filter((_, position) => position % WORKERS === index);
  const task: ClientTask = {
    mode: 'steady',
    baseUrls: [baseUrl],
    manuscriptId,
    cookies: mine,
    durationMs: seconds * 1000,
    // The writers are spread over both workers; the first sockets of each write.
    steady: { count: Math.round(commenterCount / WORKERS), intervalMs: 1000 },
  };
  workers.push(startWorker(new URL('./realtime-clients.ts', import.meta.url), task));
}
const ready = await Promise.all(
  workers.map((worker) => nextMessage<Extract<ClientReport, { type: 'ready' }>>(worker, 'ready')),
);
const joinMs = ready.flatMap((report) => report.joinMs);
console.log(
  `connected and joined in ${round((Date.now() - started) / 1000)} s ` +
    `(join ack p99 ${round(percentile(joinMs, 99))} ms)`,
);

// /healthz every 100 ms while the comments flow, from this (otherwise idle) thread.
const health: number[] = [];
let healthFailures = 0;
let polling = true;
const poller = (async () => {
  while (polling) {
    const at = now();
    try {
      const answer = await fetch(`${baseUrl}/healthz`);
      await answer.arrayBuffer();
      if (!answer.ok) healthFailures += 1;
    } catch {
      healthFailures += 1;
    }
    health.push(now() - at);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

const results = await Promise.all(
  workers.map((worker) => {
    const result = nextMessage<Extract<ClientReport, { type: 'result' }>>(worker, 'result');
    worker.postMessage({ type: 'steady' });
    return result;
  }),
);
polling = false;
await poller;

const acked = results.reduce((sum, result) => sum + result.acked.length, 0);
const errors = results.flatMap((result) => result.errors);
const received = results.reduce((sum, result) => sum + result.receivedComments, 0);
const disconnects = results.reduce((sum, result) => sum + result.disconnects, 0);
const latencies = results.flatMap((result) => result.latencies ?? []);
// Each comment reaches every socket in the room but its writer's.
const expected = acked * (total - 1);
const lost = expected - received;
const deliveryP99 = percentile(latencies, 99);
const healthP99 = percentile(health, 99);

console.log(
  `comments acked ${acked} (${round(acked / seconds)} /s), errors ${errors.length}` +
    `${errors.length ? ` (first: ${errors[0]})` : ''}, disconnects ${disconnects}`,
);
console.log(
  `delivery  p50 ${round(percentile(latencies, 50))} ms  p99 ${round(deliveryP99)} ms  ` +
    `max ${round(percentile(latencies, 100))} ms  (${received} of ${expected} delivered, ${lost} lost)`,
);
console.log(
  `/healthz  p50 ${round(percentile(health, 50))} ms  p99 ${round(healthP99)} ms  ` +
    `max ${round(percentile(health, 100))} ms  (${health.length} asked, ${healthFailures} failed)`,
);
const ok =
  deliveryP99 < 250 &&
  healthP99 < 100 &&
  lost === 0 &&
  errors.length === 0 &&
  disconnects === 0 &&
  healthFailures === 0;
console.log(
  `${ok ? 'PASS' : 'FAIL'}: delivery p99 ${round(deliveryP99)} ms (target < 250), ` +
    `/healthz p99 ${round(healthP99)} ms (target < 100), ${lost} lost (target 0)`,
);

for (const worker of workers) worker.postMessage({ type: 'close' });
await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
const exited = new Promise((resolve) => child.once('exit', resolve));
child.send({ type: 'close' });
await exited; // the profile is written as the server process exits
process.exit(ok ? 0 : 1);
