import http from 'node:http';
import { startReaderBook } from './reader-book.ts';
import { createPeople } from './realtime-support.ts';
const book = await startReaderBook(3264, 2000);
const people = await createPeople(book.database, 10, 'r');
const pg = book.database.pglite!;
const stats = new Map<string, [number, number, number]>();
const rec = (k: string, ms: number, rows: number) => { const e = stats.get(k) ?? [0, 0, 0]; e[0]++; e[1] += ms; e[2] += rows; stats.set(k, e); };
for (const m of ['query', 'exec'] as const) {
  const orig = (pg as any)[m].bind(pg);
  (pg as any)[m] = async (q: string, ...r: unknown[]) => { const t = performance.now(); let res: any; try { return (res = await orig(q, ...r)); } finally { rec(`${m} ${q.replace(/\s+/g, ' ').slice(0, 110)}`, performance.now() - t, res?.rows?.length ?? 0); } };
}
const origTx = pg.transaction.bind(pg);
(pg as any).transaction = async (fn: any) => (origTx as any)(async (tx: any) => { const oq = tx.query.bind(tx); tx.query = async (q: string, ...r: unknown[]) => { const t2 = performance.now(); let res: any; try { return (res = await oq(q, ...r)); } finally { rec(`  tx ${q.replace(/\s+/g, ' ').slice(0, 110)}`, performance.now() - t2, res?.rows?.length ?? 0); } }; return fn(tx); });
const post = (c: number, n: number) => new Promise<number>((res) => {
  const r = http.request(`${book.baseUrl}/comments/manuscript/${book.manuscriptId}`, { method: 'POST', headers: { cookie: `${people[c]!.cookie}; csrf_token=abcdefghijklmnopqrstuvwxyz`, 'x-csrf-token': 'abcdefghijklmnopqrstuvwxyz', 'content-type': 'application/json', accept: 'application/json' } }, (s) => { s.resume(); s.on('end', () => res(s.statusCode!)); });
  r.end(JSON.stringify({ highlight: { selection_id: `bench-${(c * 97 + n * 13) % 2000}` }, comment: `note ${n}` }));
});
await post(0, 999);
stats.clear();
const t = performance.now();
await Promise.all(Array.from({ length: 10 }, async (_, c) => { for (let n = 0; n < 10; n++) await post(c, n); }));
console.log('100 creates in', (performance.now() - t).toFixed(0), 'ms');
for (const [k, [n, ms, rows]] of [...stats].sort((a, b) => b[1][1] - a[1][1]).slice(0, 25)) console.log(n, ms.toFixed(0), rows, k);
await book.close(); process.exit(0);
