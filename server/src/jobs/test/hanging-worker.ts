// A worker process for liveness.test.ts: takes one job of the `liveness-probe` queue and never
// finishes it, so that the test can kill it (-9) mid-attempt. Prints `running <job id>`.
import { z } from 'zod';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { openDatabase } from '../../db/index.ts';
import { JobQueue } from '../queue.ts';
import { bareContext, quietLog } from './quiet-log.ts';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL! });
const queue = new JobQueue(database, { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 }, quietLog);
queue.define({
  id: 'liveness-probe',
  payload: z.object({}),
  handler: async (_ctx, _payload, attempt) => {
    console.log(`running ${attempt.id}`);
    await new Promise(() => undefined);
  },
});
await queue.start(bareContext);
