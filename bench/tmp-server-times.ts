import { startReaderBook } from './reader-book.ts';
const server = await startReaderBook(3212, 2000);
const url = `${server.baseUrl}/manuscript/document/reader/${server.manuscriptId}`;
const cookie = `${server.cookie.name}=${server.cookie.value}`;
async function time(label: string, u: string, headers: Record<string, string>) {
  const t = performance.now();
  const r = await fetch(u, { headers: { cookie, 'accept-encoding': 'br, gzip', ...headers } });
  const body = await r.arrayBuffer();
  console.log(`${label.padEnd(12)} ${r.status} ${(performance.now() - t).toFixed(1).padStart(7)} ms ${body.byteLength} B ${r.headers.get('content-encoding')}`);
}
for (let i = 0; i < 4; i++) {
  await time('page', url, { accept: 'text/html' });
  await time('json', url, { accept: 'application/json' });
  await time('theme.js', `${server.baseUrl}/theme.js`, {});
  await time('comments', `${server.baseUrl}/comments/manuscript/${server.manuscriptId}`, { accept: 'application/json' });
}
await server.close();
process.exit(0);
