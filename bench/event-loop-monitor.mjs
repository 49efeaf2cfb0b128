// Loaded into the server process by upload.bench.ts (node --import; plain JavaScript, so it
// needs no loader): watches the event loop from inside and tells the benchmark about every
// stall. A timer runs every 5 ms; when it fires late by more than 20 ms, the loop was stalled.
// For each stall it also notes how long the main thread actually ran on a CPU meanwhile
// (/proc/self/task/<pid>/schedstat): on a busy machine a thread can be ready to run and still
// wait for a CPU, which is the machine's stall, not ours. Stalls are appended, one JSON object
// a line, to $MARGINS_BENCH_STALL_LOG.
import { appendFileSync, readFileSync } from 'node:fs';

const log = process.env.MARGINS_BENCH_STALL_LOG;
const INTERVAL_MS = 5;
const REPORT_OVER_MS = 20;

/** [ns run on a CPU, ns waited for a CPU] of the main thread. */
function schedstat() {
  const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
  return [Number(run), Number(wait)];
}

if (log) {
  let last = performance.now();
  let [lastRun, lastWait] = schedstat();
  setInterval(() => {
    const now = performance.now();
    const [run, wait] = schedstat();
    const stallMs = now - last - INTERVAL_MS;
    if (stallMs > REPORT_OVER_MS) {
      const record = {
        at: Date.now(),
        stallMs: Math.round(stallMs * 10) / 10,
        ranMs: Math.round((run - lastRun) / 1e5) / 10,
        waitedMs: Math.round((wait - lastWait) / 1e5) / 10,
      };
      appendFileSync(log, `${JSON.stringify(record)}\n`);
    }
    last = now;
    lastRun = run;
    lastWait = wait;
  }, INTERVAL_MS).unref();
}
