import http from 'node:http';
import { startReaderBook } from './reader-book.ts';
const book = await startReaderBook(3273, 50);
const pg = book.database.pglite!;
const seen = new Map<string, number>();
for (const name of ['query', 'exec'] as const) {
  const orig = (pg[name] as (...a: unknown[]) => Promise<unknown>).bind(pg);
  (pg as unknown as Record<string, unknown>)[name] = (s: string, ...rest: unknown[]) => {
    const k = String(s).slice(0, 120);
    seen.set(k, (seen.get(k) ?? 0) + 1);
    return orig(s, ...rest);
  };
}
const cookie = `${book.cookie.name}=${book.cookie.value}`;
const get = (url: string) => new Promise<number>((res) => http.get(url, { headers: { cookie, accept: 'application/json', 'accept-encoding': 'br' } }, (r) => { r.resume(); r.on('end', () => res(r.statusCode!)); }));
for (let i = 0; i < 200; i++) await get(`${book.baseUrl}/manuscript/document/reader/${book.manuscriptId}`);
console.log([...seen].sort((a, b) => b[1] - a[1]).slice(0, 15));
await book.close();
process.exit(0);
