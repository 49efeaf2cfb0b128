// Fan-out: one comment saved by one socket reaches every socket in the same room.
//   npx tsx bench/realtime-fanout.bench.ts [sockets=1000] [messages=100] [--private]
//   DATABASE_URL=postgres://… npx tsx bench/realtime-fanout.bench.ts 1000 100 --processes=2
// Targets (issue 4): p99 < 100 ms with 1,000 sockets on this machine (2 cores); with two server
// processes on PostgreSQL through the adapter, p99 < 150 ms. With one process the server runs
// in this thread; with two, in child processes (the sockets split between them, the writer on
// the first). The clients run in two worker threads. A latency is the time from the writer's
// save_comment to one socket's new_comment; "full fan-out" is until the last socket has it.
// With DATABASE_URL the server uses PostgreSQL, otherwise in-memory PGlite.
import { fork, type ChildProcess } from 'node:child_process';
import type { Worker } from 'node:worker_threads';
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

/** The server(s): this thread, or child processes that share PostgreSQL and the adapter. */
async function startServers(): Promise<{
  baseUrls: string[];
  database: Database;
  close(): Promise<void>;
}> {
  if (processes === 1) {
    const server = await startServer();
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
    Array.from({ length: processes }, () => {
      const child = fork(new URL('./realtime-server.ts', import.meta.url), {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, DATABASE_URL: databaseUrl },
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

const server = await startServers();
console.log(
  `fan-out: ${socketCount} sockets in one room, ${messages} comments, ` +
    `database ${server.database.kind}, ${processes} server process(es)` +
    `${privateComments ? ', private comments' : ''}`,
);
const [owner, ...readers] = await createPeople(server.database, socketCount + 1);
const manuscriptId = await createManuscript(server.database, owner!.id, { privateComments });

const started = Date.now();
const workers: Worker[] = [];
for (let index = 0; index < WORKERS; index++) {
  const cookies = readers
    .filter((_, position) => position % WORKERS === index)
    .map((r) => r.cookie);
  const task: ClientTask = {
    mode: 'fanout',
    baseUrls: server.baseUrls,
    manuscriptId,
    cookies,
    ...(index === 0 ? { writer: { messages, intervalMs: 250 } } : {}),
  };
  workers.push(startWorker(new URL('./realtime-clients.ts', import.meta.url), task));
}
const ready = await Promise.all(
  workers.map((worker) => nextMessage<Extract<ClientReport, { type: 'ready' }>>(worker, 'ready')),
);
const joinMs = ready.flatMap((report) => report.joinMs);
console.log(
  `connected and joined in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
    `(join ack p50 ${round(percentile(joinMs, 50))} ms, p99 ${round(percentile(joinMs, 99))} ms)`,
);
// Let the join storm (join_room to everyone) drain before measuring.
await new Promise((resolve) => setTimeout(resolve, 5_000));

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
const fullFanOut = [...lastById.values()];
// The writer does not get its own broadcast (it has the ack): everyone else should have each.
const expected = sent.sent.length * (socketCount - 1);
const p99 = percentile(latencies, 99);

console.log(
  `comments acked ${sent.sent.length}/${messages}, deliveries ${latencies.length}/${expected}`,
);
console.log(
  `per delivery   p50 ${round(percentile(latencies, 50))} ms  p99 ${round(p99)} ms  ` +
    `max ${round(Math.max(...latencies))} ms`,
);
console.log(
  `full fan-out   p50 ${round(percentile(fullFanOut, 50))} ms  p99 ${round(percentile(fullFanOut, 99))} ms`,
);
const ok = p99 < TARGET_P99_MS && latencies.length === expected && sent.failed === 0;
console.log(
  `${ok ? 'PASS' : 'FAIL'}: p99 per delivery ${round(p99)} ms (target < ${TARGET_P99_MS} ms)`,
);

for (const worker of workers) worker.postMessage({ type: 'close' });
await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
await server.close();
process.exit(ok ? 0 : 1);
