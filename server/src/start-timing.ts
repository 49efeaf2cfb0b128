/**
 * Timestamps of the start path, so the start can be measured rather than guessed
 * (bench/start.bench.ts reads them). With START_TIMING=1 each phase prints one line to stderr,
 * `start-phase <name> <ms> <rss MB> <heap MB>`: the milliseconds since the process started
 * (performance.now() counts from the process's time origin, so module loading is included) and
 * the memory then. Silent otherwise.
 */
const enabled = process.env.START_TIMING === '1';

export function startPhase(name: string): void {
  if (!enabled) return;
  const { rss, heapUsed } = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  process.stderr.write(
    `start-phase ${name} ${performance.now().toFixed(1)} ${mb(rss)} ${mb(heapUsed)}\n`,
  );
}
