// Upload → reader-ready benchmark against the real server process, every format of the
// ~150k-word test novel.
//
//   npx tsx bench/upload.bench.ts [--formats docx,odt] [--repeat 3]
//                                 [--database-url postgres://user@host:port/db]
//                                 [--server-node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]
//
// Targets (issue 3): DOCX upload → reader-ready ≤ 1.5 × raw mammoth on the same file; every
// format < 12 s; server peak RSS < 600 MB; while a book converts, /healthz answers < 50 ms at
// p99 and the longest answer (an event-loop stall shows up as one) stays < 50 ms.
//
// The server is started fresh on a free port with an empty embedded database in a temporary
// folder, or, with --database-url, in a fresh database created on that PostgreSQL server (and
// dropped at the end). Each format is uploaded --repeat times (default 3); the time reported is
// the median, /healthz percentiles are over every probe of every run of that format. Raw
// mammoth (warm, in this process) is timed right after each DOCX upload, so the ratio compares
// runs made under the same machine load.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import mammoth from 'mammoth';
import pg from 'pg';
import { ensureBigBook, FORMATS, OFFICE_FORMATS } from './fixtures/generate.ts';

const TARGETS = { docxRatio: 1.5, seconds: 12, rssMb: 600, p99Ms: 50, maxMs: 50 };
const START_TIMEOUT_MS = 120_000;
const UPLOAD_TIMEOUT_MS = 120_000;
const STATE_POLL_MS = 25;

const { values: args } = parseArgs({
  options: {
    formats: { type: 'string', default: FORMATS.join(',') },
    repeat: { type: 'string', default: '3' },
    'database-url': { type: 'string' },
    'server-node-args': { type: 'string', default: '' },
  },
});
type Format = (typeof FORMATS)[number];
const formats = args.formats.split(',').map((format) => format.trim()) as Format[];
for (const format of formats) {
  if (!(FORMATS as readonly string[]).includes(format)) {
    console.error(`Unknown format "${format}". Formats: ${FORMATS.join(', ')}`);
    process.exit(2);
  }
}
const repeat = Number(args.repeat);
if (!Number.isInteger(repeat) || repeat < 1) {
  console.error('--repeat must be a positive whole number');
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const { dir, name, missingOffice } = ensureBigBook();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => percentile(values, 50);
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh database on the given PostgreSQL server, dropped by the returned function. */
async function freshPostgresDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `margins_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${database}`;
  return {
    url: target.href,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server process

const cleanups: Array<() => void | Promise<void>> = [];
let server: ChildProcess | null = null;
let serverOutput = '';
let serverExited = false;

async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error('clean-up failed:', error);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

async function startServer(port: number, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'margins-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const nodeArgs = args['server-node-args'].split(/\s+/).filter(Boolean);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      WORD_LIMIT_FREE: '100000000',
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  cleanups.push(async () => {
    if (serverExited) return;
    child.kill('SIGTERM');
    const exited = await Promise.race([
      new Promise((resolve) => child.once('exit', () => resolve(true))),
      sleep(10_000).then(() => false),
    ]);
    if (!exited) child.kill('SIGKILL');
  });
  child.stdout!.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    serverOutput += chunk.toString();
    process.stderr.write(chunk);
  });
  child.once('exit', () => (serverExited = true));

  const credentials = await new Promise<{ email: string; password: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not start in ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const match = /(ada@margins\.local)\s+(\S+)/.exec(serverOutput);
      if (match && serverOutput.includes('Margins is running')) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({ email: match[1]!, password: match[2]! });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${serverOutput}`));
    });
  });
  return { credentials, startSeconds: (performance.now() - started) / 1000 };
}

function serverMemoryMb(): { rss: number; hwm: number } {
  if (!server?.pid || serverExited) throw new Error(`the server died:\n${serverOutput}`);
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

// ---------------------------------------------------------------------------------------------
// HTTP client with a cookie jar and the CSRF header

function client(base: string) {
  const jar = new Map<string, string>();
  return async function call(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(base + path, {
      ...init,
      signal: init.signal ?? AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      headers: {
        accept: 'application/json',
        cookie: [...jar].map(([key, value]) => `${key}=${value}`).join('; '),
        'x-csrf-token': jar.get('csrf_token') ?? '',
        ...(init.headers as Record<string, string>),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      jar.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    return response;
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements

/** Probes /healthz back to back while `until` is pending; returns the latencies in ms. */
async function probeHealth(base: string, until: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void until.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const start = performance.now();
    const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    latencies.push(performance.now() - start);
    if (!response.ok) throw new Error(`/healthz answered ${response.status}`);
    await sleep(5);
  }
  return latencies;
}

async function uploadAndWait(call: ReturnType<typeof client>, format: Format): Promise<number> {
  const bytes = readFileSync(join(dir, `${name}.${format}`));
  const form = new FormData();
  form.set('docxfile', new Blob([bytes]), `${name}.${format}`);
  const start = performance.now();
  const response = await call('/manuscript/document', { method: 'POST', body: form });
  if (!response.ok) {
    throw new Error(`${format}: upload ${response.status} ${await response.text()}`);
  }
  const { process_id: processId, manuscript } = (await response.json()) as {
    process_id: string;
    manuscript: { id: number };
  };
  for (;;) {
    if (performance.now() - start > UPLOAD_TIMEOUT_MS) {
      throw new Error(`${format}: not reader-ready after ${UPLOAD_TIMEOUT_MS / 1000} s`);
    }
    const state = (await (await call(`/manuscript/document/state/${processId}`)).json()) as {
      status: string;
      message: string;
    };
    if (state.status === 'SUCCESS') break;
    if (state.status !== 'PENDING' && state.status !== 'PROGRESS') {
      throw new Error(`${format}: ${state.status} ${state.message}`);
    }
    await sleep(STATE_POLL_MS);
  }
  const reader = await call(`/manuscript/document/reader/${manuscript.id}`);
  const body = (await reader.json()) as { html?: string; words?: number };
  const seconds = (performance.now() - start) / 1000;
  if (!reader.ok || !body.html || !(body.words && body.words > 100_000)) {
    throw new Error(`${format}: reader ${reader.status}, ${body.words} words`);
  }
  const removed = await call(`/manuscript/${manuscript.id}`, { method: 'DELETE' });
  if (!removed.ok) throw new Error(`${format}: delete ${removed.status}`);
  return seconds;
}

const docxBytes = () => readFileSync(join(dir, `${name}.docx`));
async function rawMammothSeconds(): Promise<number> {
  const bytes = docxBytes();
  const start = performance.now();
  await mammoth.convertToHtml({ buffer: bytes });
  return (performance.now() - start) / 1000;
}

// ---------------------------------------------------------------------------------------------

interface Row {
  format: Format;
  seconds: number[];
  latencies: number[];
  rssAfterMb: number;
  raw: number[];
}

const rows: Row[] = [];
const skipped: string[] = [];
let startSeconds = NaN;
let idle = { rss: NaN, hwm: NaN };
let peak = NaN;
let failure: unknown = null;
const loadBefore = loadavg()[0]!;

try {
  let databaseUrl: string | undefined;
  if (args['database-url']) {
    const fresh = await freshPostgresDatabase(args['database-url']);
    cleanups.push(() => fresh.drop());
    databaseUrl = fresh.url;
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startServer(port, databaseUrl);
  startSeconds = started.startSeconds;
  const call = client(base);
  await call('/healthz');
  const login = await call('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(started.credentials),
  });
  if (!login.ok) throw new Error(`login failed: ${await login.text()}`);
  await sleep(500);
  idle = serverMemoryMb();
  if (formats.includes('docx') && !missingOffice) await rawMammothSeconds(); // warm the JIT

  for (const format of formats) {
    if (missingOffice && (OFFICE_FORMATS as readonly string[]).includes(format)) {
      skipped.push(`${format}: LibreOffice is missing, no fixture`);
      continue;
    }
    const row: Row = { format, seconds: [], latencies: [], rssAfterMb: NaN, raw: [] };
    for (let run = 0; run < repeat; run++) {
      const upload = uploadAndWait(call, format);
      const [seconds, latencies] = await Promise.all([upload, probeHealth(base, upload)]);
      row.seconds.push(seconds);
      row.latencies.push(...latencies);
      if (format === 'docx') row.raw.push(await rawMammothSeconds());
    }
    row.rssAfterMb = serverMemoryMb().rss;
    rows.push(row);
  }
  peak = serverMemoryMb().hwm;
} catch (error) {
  failure = error;
} finally {
  await cleanUp();
}

// ---------------------------------------------------------------------------------------------
// Report

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const fixed = (value: number, digits: number, width: number) =>
  (Number.isFinite(value) ? value.toFixed(digits) : '—').padStart(width);
console.log(
  `\nUpload → reader-ready, 150k-word book, real server process (${args['database-url'] ? 'PostgreSQL' : 'PGlite'}), ` +
    `median of ${repeat}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} on this machine`,
);
console.log(
  `  server start → listening ${fixed(startSeconds, 2, 5)} s (includes warming the conversion thread); ` +
    `idle RSS ${fixed(idle.rss, 0, 4)} MB`,
);
console.log(
  '  format  median s  (runs)                 healthz p99   max      probes  RSS after',
);
for (const row of rows) {
  const runs = row.seconds.map((s) => s.toFixed(2)).join(' ');
  let line =
    `  ${row.format.padEnd(6)}  ${fixed(median(row.seconds), 2, 6)}    ${`(${runs})`.padEnd(22)} ` +
    `${fixed(percentile(row.latencies, 99), 1, 7)} ms ${fixed(Math.max(...row.latencies), 1, 6)} ms  ` +
    `${String(row.latencies.length).padStart(5)}  ${fixed(row.rssAfterMb, 0, 5)} MB`;
  if (row.format === 'docx') {
    line += `  raw mammoth ${fixed(median(row.raw), 2, 4)} s (${row.raw.map((s) => s.toFixed(2)).join(' ')})`;
  }
  console.log(line);
}
for (const line of skipped) console.log(`  skipped ${line}`);

const docx = rows.find((row) => row.format === 'docx');
const docxRatio = docx ? median(docx.seconds) / median(docx.raw) : NaN;
const slowest = Math.max(...rows.map((row) => median(row.seconds)));
const worstP99 = Math.max(...rows.map((row) => percentile(row.latencies, 99)));
const worstMax = Math.max(...rows.flatMap((row) => row.latencies));
console.log('');
if (docx) {
  console.log(
    `  DOCX ratio to raw mammoth   ${docxRatio.toFixed(2)}× (target ≤ ${TARGETS.docxRatio})  ${verdict(docxRatio <= TARGETS.docxRatio)}`,
  );
}
console.log(
  `  slowest format              ${slowest.toFixed(2)} s (target < ${TARGETS.seconds})  ${verdict(slowest < TARGETS.seconds)}`,
);
console.log(
  `  server peak RSS (VmHWM)     ${fixed(peak, 0, 0)} MB (target < ${TARGETS.rssMb})  ${verdict(peak < TARGETS.rssMb)}`,
);
console.log(
  `  /healthz p99 (worst format) ${worstP99.toFixed(1)} ms (target < ${TARGETS.p99Ms})  ${verdict(worstP99 < TARGETS.p99Ms)}`,
);
console.log(
  `  /healthz max (stall bound)  ${worstMax.toFixed(1)} ms (target < ${TARGETS.maxMs})  ${verdict(worstMax < TARGETS.maxMs)}`,
);
if (failure) {
  console.error('\nThe benchmark failed:', failure);
  process.exitCode = 1;
}
