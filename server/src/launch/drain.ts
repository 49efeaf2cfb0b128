/**
 * A SIGTERM's drain, in order (what a rolling restart relies on):
 *   1. readiness turns 503 at once (/readyz: the balancer stops sending new requests);
 *   2. for `delayMs` (DRAIN_DELAY_MS, 5 s) requests are still served, while the balancer
 *      notices;
 *   3. the app closes: sockets have their transports closed (realtime/index.ts: clients reconnect
 *      by themselves, to another process, join their rooms again and catch up), the listener
 *      stops taking connections, requests in flight finish, the job queue stops taking jobs
 *      and waits for the active ones (jobs/queue.ts stop());
 *   4. the database closes and the process exits 0.
 * The mail outbox needs nothing: unsent mail stays in its table for the next process. If 3–4
 * take longer than `graceMs` (DRAIN_GRACE_MS, 30 s) the process exits 1 anyway. A second
 * SIGTERM or SIGINT during the drain exits at once (1). SIGINT (Ctrl-C, development) drains
 * without the delay: no balancer waits on a terminal.
 */
interface DrainSteps {
  startDraining(): void;
  closeApp(): Promise<void>;
  closeDatabase(): Promise<void>;
  log(message: string): void;
  exit(code: number): void;
}

export interface DrainTimers {
  wait(ms: number): Promise<void>;
  /** Calls `fire` after ms unless cancelled. */
  after(ms: number, fire: () => void): () => void;
}

const realTimers: DrainTimers = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  after(ms, fire) {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export function drainer(
  steps: DrainSteps,
  options: { delayMs: number; graceMs: number },
  timers: DrainTimers = realTimers,
): (signal: 'SIGTERM' | 'SIGINT') => Promise<void> {
  let draining = false;
  return async (signal) => {
    if (draining) {
      steps.log(`${signal} again: exiting now`);
      steps.exit(1);
      return;
    }
    draining = true;
    steps.startDraining();
    const delayMs = signal === 'SIGTERM' ? options.delayMs : 0;
    steps.log(
      delayMs > 0
        ? `${signal}: draining (not ready; closing in ${delayMs / 1000} s)`
        : `${signal}: shutting down`,
    );
    if (delayMs > 0) await timers.wait(delayMs);
    let overdue = false;
    const cancel = timers.after(options.graceMs, () => {
      overdue = true;
      steps.log(`still closing after ${options.graceMs / 1000} s: exiting now`);
      steps.exit(1);
    });
    try {
      await steps.closeApp();
      await steps.closeDatabase();
    } catch (error) {
      cancel();
      steps.log(`closing failed: ${error instanceof Error ? error.message : String(error)}`);
      steps.exit(1);
      return;
    }
    cancel();
    if (!overdue) steps.exit(0);
  };
}
