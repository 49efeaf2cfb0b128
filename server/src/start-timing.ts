/**
 * Timestamps of the start path, so the start can be measured rather than guessed
 * (bench/start.bench.ts reads them). With START_TIMING=1 each phase prints one line to stderr,
 * `start-phase <name> <ms>`, the milliseconds since the process started (performance.now() counts
 * from the process's time origin, so module loading is included). Silent otherwise.
 */
const enabled = process.env.START_TIMING === '1';

export function startPhase(name: string): void {
  if (!enabled) return;
  process.stderr.write(`start-phase ${name} ${performance.now().toFixed(1)}\n`);
}
