// A lean start (issue 11 item 4): the built server (`npm run build`), as `npm start` runs it.
//   npm run build && npx tsx bench/start.bench.ts [idle seconds=60]
// For an empty DATA_DIR, without and with the demo seed, prints:
//   - first start: ms from spawn to the first 200 from /healthz (target ≤ 4000 ms);
//   - restart on the data the first start left: the same (target ≤ 1500 ms), RESTARTS times (5):
//     the median, and each (a restart's time swings by ±200 ms on this shared machine);
//   - whether each start found the built server's code cache (server/src/launch/code-cache.ts):
//     the first start after a build writes it, so run the bench twice after building to see both;
//   - idle RSS of the first process, `idle seconds` after its start work is done (≤ 200 MB), and
//     on the way there (every 5 s): right after a burst of work (the demo seed) V8 keeps its
//     young generation grown (~30 MB) until its memory reducer runs, ~25–30 s later;
//   - the breakdown: each phase of the start path (START_TIMING=1: the server prints
//     `start-phase <name> <ms since its process started> <RSS MB> <heap MB>`).
// Port: BENCH_PORT (3231). Absolute times on a shared machine are noisy: report the load with them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { round } from './realtime-support.ts';

const idleSeconds = Number(process.argv[2] ?? 60);
const port = Number(process.env.BENCH_PORT ?? 3231);
const serverMain = path.resolve(import.meta.dirname, '../server/dist/main.mjs');
const TARGET = { first: 4000, restart: 1500, rss: 200 };
const restartCount = Number(process.env.RESTARTS ?? 5);

interface Started {
  child: ChildProcess;
  /** ms from spawn to the first 200 from /healthz. */
  ms: number;
  /** Phase name → ms since the server process started (its own clock), RSS and V8 heap (MB). */
  phases: Map<string, { ms: number; rss: number; heap: number }>;
  /** The code cache at launch: used, rejected or none (the `start-cache` line). */
  cache: string;
  /** Resolves when the phase has been printed (or the process ended). */
  phase(name: string): Promise<void>;
}

function healthy(): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    request.on('error', () => resolve(false));
  });
}

/** Starts the built server on a data dir and waits for /healthz. */
async function startBuilt(dataDir: string, seed: boolean): Promise<Started> {
  const phases: Started['phases'] = new Map();
  const waiting = new Map<string, () => void>();
  const started = performance.now();
  // As server/package.json's start script runs it (its flag and MALLOC_ARENA_MAX).
  const child = spawn(process.execPath, ['--max-semi-space-size=2', serverMain], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      MALLOC_ARENA_MAX: '2',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: String(seed),
      DRAIN_DELAY_MS: '0', // stopped with SIGTERM: no balancer to wait for
      LOG_LEVEL: 'warn',
      START_TIMING: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let cache = 'none (not a built server)';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    let newline;
    while ((newline = stderr.indexOf('\n')) >= 0) {
      const line = stderr.slice(0, newline);
      stderr = stderr.slice(newline + 1);
      const cacheLine = /^start-cache (\S+)/.exec(line);
      if (cacheLine) {
        cache = cacheLine[1]!;
        continue;
      }
      const match = /^start-phase (\S+) ([\d.]+) (\d+) (\d+)$/.exec(line);
      if (!match) {
        process.stderr.write(`server: ${line}\n`);
        continue;
      }
      phases.set(match[1]!, {
        ms: Number(match[2]),
        rss: Number(match[3]),
        heap: Number(match[4]),
      });
      waiting.get(match[1]!)?.();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode})`);
    if (await healthy()) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ms = performance.now() - started;
  return {
    child,
    ms,
    phases,
    get cache() {
      return cache;
    },
    phase: (name) =>
      phases.has(name)
        ? Promise.resolve()
        : Promise.race([exited, new Promise<void>((resolve) => waiting.set(name, resolve))]),
  };
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const breakdown = (phases: Started['phases']) =>
  [...phases]
    .map(
      ([name, { ms, rss, heap }]) =>
        `\n    ${name.padEnd(28)} ${round(ms)} ms, RSS ${rss} MB, heap ${heap} MB`,
    )
    .join('');

async function measure(seed: boolean) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'margins-start-'));
  try {
    const first = await startBuilt(dataDir, seed);
    // Idle: after the start's own work (the seed, when it runs after /healthz) has finished.
    if (seed) await first.phase('seeded');
    const series: string[] = [];
    for (let second = 5; second < idleSeconds; second += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      series.push(`${second} s ${round(rssMb(first.child.pid!))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, (idleSeconds % 5 || 5) * 1000));
    const idle = rssMb(first.child.pid!);
    await stop(first.child);
    const restarts: Started[] = [];
    for (let index = 0; index < restartCount; index++) {
      const again = await startBuilt(dataDir, seed);
      await stop(again.child);
      restarts.push(again);
    }
    restarts.sort((a, b) => a.ms - b.ms);
    return { first, again: restarts[Math.floor(restarts.length / 2)]!, restarts, idle, series };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const verdict = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');
console.log(
  `load average at start: ${loadavg()
    .map((load) => round(load, 2))
    .join(' ')}`,
);
for (const seed of [false, true]) {
  const { first, again, restarts, idle, series } = await measure(seed);
  const label = seed ? 'with the demo seed' : 'without the seed';
  const seeded = first.phases.get('seeded')?.ms;
  console.log(`\nstart ${label}`);
  console.log(
    `  first start  ${round(first.ms)} ms to /healthz (target ≤ ${TARGET.first}: ${verdict(first.ms, TARGET.first)})` +
      (seeded === undefined ? '' : `; demo data done at ${round(seeded)} ms`),
  );
  console.log(
    `  restart      ${round(again.ms)} ms to /healthz, median of ${restarts.length} (target ≤ ${TARGET.restart}: ${verdict(again.ms, TARGET.restart)}); ` +
      `each: ${restarts.map((restart) => round(restart.ms)).join(', ')} ms`,
  );
  console.log(
    `  code cache   first start: ${first.cache}; restarts: ${[...new Set(restarts.map((restart) => restart.cache))].join(', ')}`,
  );
  console.log(
    `  idle RSS     ${round(idle)} MB after ${idleSeconds} s idle (target ≤ ${TARGET.rss}: ${verdict(idle, TARGET.rss)})`,
  );
  if (series.length > 0) console.log(`  RSS (MB) on the way, s idle: ${series.join(', ')}`);
  console.log(`  first start phases (since process start): ${breakdown(first.phases)}`);
  console.log(`  median restart's phases (since process start): ${breakdown(again.phases)}`);
}
process.exit(0);
