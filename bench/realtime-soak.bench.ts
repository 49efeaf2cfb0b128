// Soak: many sockets in one room write comments as fast as their acks come back.
//   npx tsx bench/realtime-soak.bench.ts [seconds=60] [sockets=200]
// Target (issue 4): no error and no lost comment — every ok ack is a row in the database, every
// row was acked, and every socket received every other socket's new_comment. With DATABASE_URL
// the server uses PostgreSQL, otherwise in-memory PGlite.
import type { Worker } from 'node:worker_threads';
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { schema } from '../server/src/db/index.ts';
import type { ClientReport, ClientTask } from './realtime-clients.ts';
import {
  createManuscript,
  createPeople,
  nextMessage,
  round,
  startServer,
  startWorker,
} from './realtime-support.ts';

const WORKERS = 2;
const seconds = Number(process.argv[2] ?? 60);
const socketCount = Number(process.argv[3] ?? 200);

const server = await startServer();
console.log(
  `soak: ${socketCount} sockets writing comments for ${seconds} s, database ${server.database.kind}`,
);
const [owner, ...writers] = await createPeople(server.database, socketCount + 1);
const manuscriptId = await createManuscript(server.database, owner!.id);

const workers: Worker[] = [];
for (let index = 0; index < WORKERS; index++) {
  const task: ClientTask = {
    mode: 'soak',
    baseUrls: [server.baseUrl],
    manuscriptId,
    cookies: writers.filter((_, position) => position % WORKERS === index).map((w) => w.cookie),
    durationMs: seconds * 1000,
  };
  workers.push(startWorker(new URL('./realtime-clients.ts', import.meta.url), task));
}
await Promise.all(workers.map((worker) => nextMessage(worker, 'ready')));

const started = Date.now();
const rssBefore = process.memoryUsage().rss;
const results = await Promise.all(
  workers.map((worker) => {
    const result = nextMessage<Extract<ClientReport, { type: 'result' }>>(worker, 'result');
    worker.postMessage({ type: 'soak' });
    return result;
  }),
);
const elapsed = (Date.now() - started) / 1000 - 2; // the workers wait 2 s for late broadcasts

const acked = results.flatMap((result) => result.acked);
const errors = results.flatMap((result) => result.errors);
const received = results.reduce((sum, result) => sum + result.receivedComments, 0);
const disconnects = results.reduce((sum, result) => sum + result.disconnects, 0);
const { db } = server.database;
const [rows] = await db
  .select({ total: count() })
  .from(schema.comments)
  .where(and(eq(schema.comments.manuscriptId, manuscriptId), isNull(schema.comments.deletedAt)));
let missing = 0;
for (let from = 0; from < acked.length; from += 5_000) {
  const ids = acked.slice(from, from + 5_000);
  const [found] = await db
    .select({ total: count() })
    .from(schema.comments)
    .where(inArray(schema.comments.id, ids));
  missing += ids.length - (found?.total ?? 0);
}
const duplicates = acked.length - new Set(acked).size;
// Each comment reaches every socket in the room but its writer's.
const expectedDeliveries = acked.length * (socketCount - 1);

console.log(
  `acked ${acked.length} comments in ${round(elapsed)} s (${round(acked.length / elapsed)} /s), ` +
    `rows ${rows?.total ?? 0}, acked but missing ${missing}, duplicate acks ${duplicates}`,
);
console.log(
  `errors ${errors.length}${errors.length ? ` (first: ${errors[0]})` : ''}, disconnects ${disconnects}`,
);
console.log(`broadcasts received ${received} of ${expectedDeliveries} expected`);
console.log(
  `process RSS (server + client threads) ${round(process.memoryUsage().rss / 1048576)} MB, before ${round(rssBefore / 1048576)} MB`,
);
const ok =
  errors.length === 0 &&
  disconnects === 0 &&
  missing === 0 &&
  duplicates === 0 &&
  rows?.total === acked.length &&
  received === expectedDeliveries;
console.log(`${ok ? 'PASS' : 'FAIL'}: no error, no lost comment, no lost broadcast`);

for (const worker of workers) worker.postMessage({ type: 'close' });
await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
await server.close();
process.exit(ok ? 0 : 1);
