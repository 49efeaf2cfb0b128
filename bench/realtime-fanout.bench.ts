// Fan-out: one comment saved by one socket reaches every socket in the same room.
//   npx tsx bench/realtime-fanout.bench.ts [sockets=1000] [messages=100] [--private] [--no-anchor]
//   DATABASE_URL=postgres://… npx tsx bench/realtime-fanout.bench.ts 1000 100 --processes=2
// Targets (issue 4): p99 < 100 ms with 1,000 sockets on this machine (2 cores); with two server
// processes on PostgreSQL through the adapter, p99 < 150 ms. Issue 11 (join storms), against a
// bare socket.io anchor run first in the same run (realtime-anchor.ts, same clients): connecting
// and joining ≤ 2× the anchor's time, join ack p99 < 500 ms, delivery p99 ≤ 1.3× the anchor's.
// BENCH_PORT (optional) is the anchor's port; the servers listen on the ports after it. With one process the server runs
// in this thread; with two, in child processes (the sockets split between them, the writer on
// the first). The clients run in two worker threads. A latency is the time from the writer's
// save_comment to one socket's new_comment; "full fan-out" is until the last socket has it.
// With DATABASE_URL the server uses PostgreSQL, otherwise PGlite in a temporary data dir.
import { fork, type ChildProcess } from 'node:child_process';
import type { Worker } from 'node:worker_threads';
import { startAnchor } from './realtime-anchor.ts';
import { openDatabase, type Database } from '../server/src/db/index.ts';
import type { ClientReport, ClientTask } from './realtime-clients.ts';
import {
  createManuscript,
  createPeople,
  nextMessage,
  percentile,
  round,
  startServer,
  startWorker,
} from './realtime-support.ts';

const WORKERS = 2;

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const privateComments = process.argv.includes('--private');
const processes = Number(
  process.argv.find((arg) => arg.startsWith('--processes='))?.split('=')[1] ?? 1,
);
const socketCount = Number(args[0] ?? 1000);
const messages = Number(args[1] ?? 100);
const TARGET_P99_MS = processes > 1 ? 150 : 100;
const withAnchor = !process.argv.includes('--no-anchor');
const benchPort = Number(process.env.BENCH_PORT ?? 0);
/** The n-th port after BENCH_PORT, or 0 (any free port) without it. */
const portAt = (offset: number) => (benchPort ? benchPort + offset : 0);

/** The server(s): this thread, or child processes that share PostgreSQL and the adapter. */
async function startServers(): Promise<{
  baseUrls: string[];
  database: Database;
  close(): Promise<void>;
}> {
  if (processes === 1) {
    const server = await startServer(undefined, portAt(1));
    return { baseUrls: [server.baseUrl], database: server.database, close: server.close };
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('--processes needs DATABASE_URL (PostgreSQL): the adapter joins the processes.');
    process.exit(2);
  }
  const database = await openDatabase({ databaseUrl });
  const children: ChildProcess[] = [];
  // Whatever happens here, the server processes go with us.
  process.once('exit', () => children.forEach((child) => child.kill()));
  const baseUrls = await Promise.all(
    Array.from({ length: processes }, (_, index) => {
      const child = fork(new URL('./realtime-server.ts', import.meta.url), {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, DATABASE_URL: databaseUrl, BENCH_PORT: String(portAt(1 + index)) },
      });
      children.push(child);
      return new Promise<string>((resolve, reject) => {
        child.once('message', (message: { baseUrl: string }) => resolve(message.baseUrl));
        child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
      });
    }),
  );
  return {
    baseUrls,
    database,
    close: async () => {
      await Promise.all(
        children.map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.send({ type: 'close' });
          return exited;
        }),
      );
      await database.close();
    },
  };
}

interface FanoutRun {
  connectS: number;
  joinMs: number[];
  latencies: number[];
  fullFanOut: number[];
  acked: number;
  failed: number;
  expected: number;
}

/** Connects the sockets (two worker threads), joins them, sends the comments, collects. */
async function runFanout(
  baseUrls: string[],
  manuscriptId: number,
  cookies: string[],
): Promise<FanoutRun> {
  const started = Date.now();
  const workers: Worker[] = [];
  for (let index = 0; index < WORKERS; index++) {
    const task: ClientTask = {
      mode: 'fanout',
      baseUrls,
      manuscriptId,
      cookies: cookies.filter((_, position) => position % WORKERS === index),
      ...(index === 0 ? { writer: { messages, intervalMs: 250 } } : {}),
    };
    workers.push(startWorker(new URL('./realtime-clients.ts', import.meta.url), task));
  }
  const ready = await Promise.all(
    workers.map((worker) => nextMessage<Extract<ClientReport, { type: 'ready' }>>(worker, 'ready')),
  );
  const connectS = (Date.now() - started) / 1000;
  const joinMs = ready.flatMap((report) => report.joinMs);
  // Let the join storm (presence to everyone) drain before measuring.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  workers[0]!.postMessage({ type: 'go' });
  const sent = await nextMessage<Extract<ClientReport, { type: 'sent' }>>(workers[0]!, 'sent');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const results = await Promise.all(
    workers.map((worker) => {
      const result = nextMessage<Extract<ClientReport, { type: 'result' }>>(worker, 'result');
      worker.postMessage({ type: 'finish' });
      return result;
    }),
  );
  const sentAt = new Map(sent.sent);
  const latencies: number[] = [];
  const lastById = new Map<number, number>();
  for (const [id, arrivedAt] of results.flatMap((result) => result.arrivals)) {
    const start = sentAt.get(id);
    if (start === undefined) continue;
    latencies.push(arrivedAt - start);
    lastById.set(id, Math.max(lastById.get(id) ?? 0, arrivedAt - start));
  }
  for (const worker of workers) worker.postMessage({ type: 'close' });
  await Promise.all(
    workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))),
  );
  return {
    connectS,
    joinMs,
    latencies,
    fullFanOut: [...lastById.values()],
    acked: sent.sent.length,
    failed: sent.failed,
    // The writer does not get its own broadcast (it has the ack): everyone else should have each.
    expected: sent.sent.length * (cookies.length - 1),
  };
}

function report(name: string, run: FanoutRun): void {
  console.log(
    `${name}: connected and joined in ${round(run.connectS)} s ` +
      `(join ack p50 ${round(percentile(run.joinMs, 50))} ms, p99 ${round(percentile(run.joinMs, 99))} ms)`,
  );
  console.log(
    `${name}: comments acked ${run.acked}/${messages}, deliveries ${run.latencies.length}/${run.expected}; ` +
      `per delivery p50 ${round(percentile(run.latencies, 50))} ms p99 ${round(percentile(run.latencies, 99))} ms ` +
      `max ${round(percentile(run.latencies, 100))} ms; full fan-out p99 ${round(percentile(run.fullFanOut, 99))} ms`,
  );
}

let anchor: FanoutRun | null = null;
if (withAnchor) {
  const bare = await startAnchor(portAt(0));
  anchor = await runFanout(
    [bare.baseUrl],
    1,
    Array.from({ length: socketCount }, () => ''),
  );
  await bare.close();
  report('anchor (bare socket.io)', anchor);
}

const server = await startServers();
console.log(
  `fan-out: ${socketCount} sockets in one room, ${messages} comments, ` +
    `database ${server.database.kind}, ${processes} server process(es)` +
    `${privateComments ? ', private comments' : ''}`,
);
const [owner, ...readers] = await createPeople(server.database, socketCount + 1);
const manuscriptId = await createManuscript(server.database, owner!.id, { privateComments });
const margins = await runFanout(
  server.baseUrls,
  manuscriptId,
  readers.map((reader) => reader.cookie),
);
report('margins', margins);
await server.close();

const p99 = percentile(margins.latencies, 99);
const joinP99 = percentile(margins.joinMs, 99);
const complete = margins.latencies.length === margins.expected && margins.failed === 0;
let ok = p99 < TARGET_P99_MS && complete;
console.log(
  `${ok ? 'PASS' : 'FAIL'}: p99 per delivery ${round(p99)} ms (target < ${TARGET_P99_MS} ms), ` +
    `${complete ? 'nothing lost' : 'deliveries lost'}`,
);
if (anchor) {
  const joinRatio = margins.connectS / anchor.connectS;
  const deliveryRatio = p99 / percentile(anchor.latencies, 99);
  const storm = joinRatio <= 2 && joinP99 < 500 && deliveryRatio <= 1.3;
  console.log(
    `${storm ? 'PASS' : 'FAIL'}: connect+join ${round(joinRatio, 2)}× the anchor (target ≤ 2), ` +
      `join ack p99 ${round(joinP99)} ms (target < 500), ` +
      `delivery p99 ${round(deliveryRatio, 2)}× the anchor (target ≤ 1.3)`,
  );
  ok = ok && storm;
}
process.exit(ok ? 0 : 1);
