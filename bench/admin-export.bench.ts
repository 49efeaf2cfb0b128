// Admin exports at size: 100,000 audit-log rows exported as CSV, JSON and XLSX through the real
// HTTP server, the client reading and discarding the stream. Prints, for each type, the bytes,
// the time, and the growth of the live JavaScript heap (sampled after a collection every 20
// chunks; run with --expose-gc) over its baseline while streaming, as a ratio
// of the export's size: a ratio well under 1 means the rows were never all in memory. (The
// process's RSS is printed too; it also holds the embedded database's WebAssembly memory, which
// grows once to fit a batch's query and never shrinks.)
//   node --expose-gc --import tsx bench/admin-export.bench.ts [rows=100000]
import { sql } from 'drizzle-orm';
import { schema } from '../server/src/db/index.ts';
import { createPeople, round, startServer } from './realtime-support.ts';

const rows = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;

const server = await startServer();
const { db } = server.database;
const [admin] = await createPeople(server.database, 1, 'admin');
await db
  .update(schema.users)
  .set({ role: 'admin' })
  .where(sql`${schema.users.id} = ${admin!.id}`);
await db.execute(sql`
  insert into audit_log (actor_id, actor_role, section, action, entity_ids, before, after, created_at)
  select ${admin!.id}, 'admin', 'user', 'update', array[n, n + 1],
    jsonb_build_object('display_name', 'Reader ' || n, 'about', repeat('before ', 20)),
    jsonb_build_object('display_name', 'Renamed ' || n, 'about', repeat('after ', 20)),
    now() - (n || ' seconds')::interval
  from generate_series(1, ${rows}) as n
`);
console.log(`${rows} audit rows written`);

const memory = () => process.memoryUsage().heapUsed;
// A small export first, so the database's own memory has grown to a batch's size already.
await fetch(`${server.baseUrl}/admin/api/audit-log/export/csv?per_page=1`, {
  headers: { cookie: admin!.cookie },
}).then((response) => response.arrayBuffer());
for (const type of ['csv', 'json', 'xlsx'] as const) {
  gc?.();
  const baseline = memory();
  const baselineRss = process.memoryUsage().rss;
  let peak = baseline;
  let peakRss = baselineRss;
  let bytes = 0;
  let chunks = 0;
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/admin/api/audit-log/export/${type}`, {
    headers: { cookie: admin!.cookie, 'accept-encoding': 'identity' },
  });
  if (!response.ok || !response.body) throw new Error(`${type}: ${response.status}`);
  for await (const chunk of response.body) {
    bytes += (chunk as Uint8Array).byteLength;
    // The live heap (after a collection), not garbage waiting for one.
    if (gc && ++chunks % 20 === 0) gc();
    peak = Math.max(peak, memory());
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  const growth = peak - baseline;
  console.log(
    `${type}: ${round(bytes / 1e6, 1)} MB in ${round(seconds, 1)} s; heap growth ${round(growth / 1e6, 1)} MB` +
      ` = ${round(growth / bytes, 2)}× the export (1.0 would be all of it held);` +
      ` RSS growth ${round((peakRss - baselineRss) / 1e6, 1)} MB`,
  );
}
await server.close();
