// The server process of the upload benchmark (upload.bench.ts): started as `npm start` runs it,
// on a fresh database, with the event-loop monitor loaded; its memory, its stalls, and an HTTP
// client with a cookie jar and the CSRF header.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const START_TIMEOUT_MS = 120_000;
const root = fileURLToPath(new URL('..', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What to undo at the end (or on Ctrl-C), last first. */
const cleanups: Array<() => void | Promise<void>> = [];

export async function cleanUp(): Promise<void> {
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh database on the given PostgreSQL server, dropped at clean-up. */
export async function freshPostgresDatabase(url: string): Promise<string> {
  const database = `margins_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  });
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.href;
}

/** One event-loop stall the monitor logged (see event-loop-monitor.mjs). */
export interface Stall {
  at: number;
  stallMs: number;
  ranMs: number;
  waitedMs: number;
}

export class BenchServer {
  private output = '';
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly stallLog: string,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.once('exit', () => (this.exited = true));
    cleanups.push(async () => {
      if (this.exited) return;
      child.kill('SIGTERM');
      const exited = await Promise.race([
        new Promise((resolve) => child.once('exit', () => resolve(true))),
        sleep(10_000).then(() => false),
      ]);
      if (!exited) child.kill('SIGKILL');
    });
  }

  /** Builds and starts the server; resolves with the demo author's log-in once it listens. */
  static async start(options: { port: number; databaseUrl?: string; nodeArgs: string[] }) {
    const dataDir = mkdtempSync(join(tmpdir(), 'margins-bench-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const stallLog = join(dataDir, 'stalls.jsonl');
    const started = performance.now();
    const monitor = new URL('./event-loop-monitor.mjs', import.meta.url).href;
    // The server as `npm start` runs it: the built bundle under plain node.
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: join(root, 'server') });
    const child = spawn(
      process.execPath,
      [...options.nodeArgs, '--import', monitor, 'server/dist/main.mjs'],
      {
        cwd: root,
        env: {
          ...process.env,
          MARGINS_BENCH_STALL_LOG: stallLog,
          MALLOC_ARENA_MAX: '2', // as server/package.json's start script sets it
          PORT: String(options.port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: options.databaseUrl ?? '',
          PUBLIC_URL: `http://127.0.0.1:${options.port}`,
          LOG_LEVEL: 'warn',
          DRAIN_DELAY_MS: '0', // stopped with SIGTERM: no balancer to wait for
          WORD_LIMIT_FREE: '100000000',
          NODE_ENV: 'development',
          SEED_DEMO: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const server = new BenchServer(child, stallLog);
    const credentials = await server.demoAuthor();
    return { server, credentials, startSeconds: (performance.now() - started) / 1000 };
  }

  /** The demo author's one-time password, from the start log, once the server listens. */
  private demoAuthor(): Promise<{ email: string; password: string }> {
    const { child } = this;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start in ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      const check = () => {
        const match = /(ada@margins\.local)\s+(\S+)/.exec(this.output);
        if (match && this.output.includes('Margins is running')) {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          resolve({ email: match[1]!, password: match[2]! });
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}:\n${this.output}`));
      });
    });
  }

  memoryMb(): { rss: number; hwm: number } {
    if (!this.child.pid || this.exited) throw new Error(`the server died:\n${this.output}`);
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  }

  /** Resets the server's VmHWM to its current RSS; false when the system does not allow it. */
  resetPeakRss(): boolean {
    try {
      writeFileSync(`/proc/${this.child.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The event-loop stalls the monitor in the server logged between these times (Date.now()).
   * Only stalls in which the main thread was running or waiting for a CPU most of the time
   * count: on this virtual machine a sleeping thread's timer can fire hundreds of ms late when
   * the host is busy, while the loop itself was idle and would have answered any request at once.
   */
  stallsBetween(from: number, to: number): Stall[] {
    if (!existsSync(this.stallLog)) return [];
    return readFileSync(this.stallLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Stall)
      .filter((stall) => stall.at >= from && stall.at <= to)
      .filter((stall) => stall.ranMs + stall.waitedMs >= 0.8 * stall.stallMs);
  }
}

/** Microseconds any task on the machine has waited for a CPU (PSI), or NaN. */
export function cpuPressureUs(): number {
  try {
    return Number(/^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
  } catch {
    return NaN;
  }
}

/** fetch with a cookie jar and the CSRF header, as the web client sends them. */
export function client(base: string, timeoutMs: number) {
  const jar = new Map<string, string>();
  return async function call(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(base + path, {
      ...init,
      signal: init.signal ?? AbortSignal.timeout(timeoutMs),
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
