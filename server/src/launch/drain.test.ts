import { describe, expect, it } from 'vitest';
import { drainer, type DrainTimers } from './drain.ts';

/** Steps that record their order; timers that run when the test says. */
function harness(options: { closeApp?: () => Promise<void> } = {}) {
  const order: string[] = [];
  const waits: Array<{ ms: number; resolve: () => void }> = [];
  const deadlines: Array<{ ms: number; fire: () => void; cancelled: boolean }> = [];
  const timers: DrainTimers = {
    wait: (ms) => new Promise((resolve) => waits.push({ ms, resolve: () => resolve() })),
    after(ms, fire) {
      const deadline = { ms, fire, cancelled: false };
      deadlines.push(deadline);
      return () => {
        deadline.cancelled = true;
      };
    },
  };
  const drain = drainer(
    {
      startDraining: () => order.push('not ready'),
      closeApp: async () => {
        order.push('close app');
        await options.closeApp?.();
      },
      closeDatabase: async () => {
        order.push('close database');
      },
      log: () => undefined,
      exit: (code) => order.push(`exit ${code}`),
    },
    { delayMs: 5_000, graceMs: 30_000 },
    timers,
  );
  return { drain, order, waits, deadlines };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the drain on SIGTERM', () => {
  it('turns readiness off at once, waits for the balancer, then closes and exits 0', async () => {
    const { drain, order, waits, deadlines } = harness();
    const done = drain('SIGTERM');
    await settle();
    expect(order).toEqual(['not ready']);
    expect(waits.map((wait) => wait.ms)).toEqual([5_000]);
    waits[0]!.resolve();
    await done;
    expect(order).toEqual(['not ready', 'close app', 'close database', 'exit 0']);
    expect(deadlines.map((deadline) => [deadline.ms, deadline.cancelled])).toEqual([
      [30_000, true],
    ]);
  });

  it('exits at once on a second signal', async () => {
    const { drain, order } = harness();
    void drain('SIGTERM');
    await settle();
    await drain('SIGTERM');
    expect(order).toEqual(['not ready', 'exit 1']);
  });

  it('exits 1 when closing outlasts the grace period', async () => {
    let finish: () => void = () => undefined;
    const { drain, order, waits, deadlines } = harness({
      closeApp: () => new Promise<void>((resolve) => (finish = resolve)),
    });
    const done = drain('SIGTERM');
    await settle();
    waits[0]!.resolve();
    await settle();
    deadlines[0]!.fire();
    expect(order).toEqual(['not ready', 'close app', 'exit 1']);
    finish();
    await done;
    // No second exit once the grace period has ended the process.
    expect(order.filter((step) => step.startsWith('exit'))).toEqual(['exit 1']);
  });

  it('does not wait for a balancer on Ctrl-C', async () => {
    const { drain, order, waits } = harness();
    await drain('SIGINT');
    expect(waits).toEqual([]);
    expect(order).toEqual(['not ready', 'close app', 'close database', 'exit 0']);
  });
});
