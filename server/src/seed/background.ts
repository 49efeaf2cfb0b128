import type { AppContext } from '../context.ts';
import { startPhase } from '../start-timing.ts';
import { START_LOCKS, underStartLock } from '../db/start-lock.ts';
import { seedDemoData } from './index.ts';

/**
 * The demo seed of `npm start`, run once the server answers (main.ts) rather than before: it
 * converts manuscripts and hashes passwords (~1–3 s of CPU), which a first start need not wait
 * for. The demo data appears a few seconds after start; /healthz says so meanwhile.
 */
let running: Promise<void> | null = null;

/** True while the demo data is being created. */
export function demoDataPending(): boolean {
  return running !== null;
}

/** Starts the demo seed; its report (the one-time passwords) or its failure goes to the log. */
export function seedDemoDataInBackground(
  ctx: AppContext,
  print: (report: string) => void = console.log,
): Promise<void> {
  // Processes started together on an empty database: one seeds, the others find it done.
  const seeding = underStartLock(ctx.database, START_LOCKS.demoSeed, () => seedDemoData(ctx))
    .then(
      (report) => {
        if (report) print(report);
      },
      (error: unknown) => ctx.log.error({ err: error }, 'the demo data could not be created'),
    )
    .then(() => startPhase('seeded'))
    // The seed's conversions started a thread: not kept for an idle server (conversion-pool.ts).
    .then(() => ctx.converter.releaseIdleThreads())
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'conversion threads not released'))
    .finally(() => {
      running = null;
    });
  running = seeding;
  return seeding;
}

/** Resolves when no demo seed is running (a shutdown waits for it: a half seed stays half). */
export async function demoSeedSettled(): Promise<void> {
  await running;
}
