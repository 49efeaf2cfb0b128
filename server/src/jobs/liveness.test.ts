import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_JOB_SETTINGS } from '../config.ts';
import { openTestDatabase } from '../db/test-db.ts';
import type { JobAttempt } from './definition.ts';
import { JobQueue } from './queue.ts';
import { bareContext, quietLog } from './test/quiet-log.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** The hanging worker (test/hanging-worker.ts) on `databaseUrl`; resolves with its job's id. */
function startHangingWorker(databaseUrl: string): Promise<{ child: ChildProcess; jobId: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/src/jobs/test/hanging-worker.ts'],
    { cwd: root, env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, stdio: 'pipe' },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const running = /running (\S+)/.exec(output);
      if (running) resolve({ child, jobId: running[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}): ${output}`)));
  });
}

// Processes that die apart from the database exist only on PostgreSQL (the embedded database is
// one process's, and retries what a restart cut off as it starts: queue.ts retryOrphans).
describe.skipIf(!process.env.TEST_DATABASE_URL)('a job whose worker died', () => {
  it('is taken by another worker within 10 s, and never while its worker lives', async () => {
    const database = await openTestDatabase();
    const sender = new JobQueue(database, DEFAULT_JOB_SETTINGS, quietLog);
    const survivor = new JobQueue(
      database,
      { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5, sweepSeconds: 1 },
      quietLog,
    );
    try {
      const probe = { id: 'liveness-probe', payload: z.object({}) };
      sender.define({ ...probe, handler: async () => undefined });
      await sender.start(bareContext, { work: false });
      // Sent before any worker runs: the hanging worker takes it as it starts.
      await sender.send(database.db, probe, {});
      const { child, jobId } = await startHangingWorker(database.pool!.options.connectionString!);
      const attemptOf = async () =>
        (
          await database.pool!.query<{ state: string; retry_count: number }>(
            'SELECT state, retry_count FROM pgboss.job WHERE id = $1',
            [jobId],
          )
        ).rows[0];
      const taken: JobAttempt[] = [];
      survivor.define({
        ...probe,
        handler: async (_ctx, _payload, attempt) => void taken.push(attempt),
      });
      await survivor.start(bareContext);

      // Alive: several sweeps pass (every second, past the 3 s an attempt is given to start).
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(taken).toEqual([]);
      expect(await attemptOf()).toEqual({ state: 'active', retry_count: 0 });

      const killed = Date.now();
      child.kill('SIGKILL');
      while (taken.length === 0 && Date.now() - killed < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(taken).toHaveLength(1);
      expect(Date.now() - killed).toBeLessThan(10_000);
      expect(taken[0]!.retryCount).toBe(1);
    } finally {
      await survivor.stop();
      await sender.stop();
      await database.close();
    }
  }, 40_000);
});
