import { z } from 'zod';
import { EVENT_SWEEP_CRON } from '@margins/common';
import type { JobDefinition } from '../jobs/definition.ts';

const payload = z.object({});

/**
 * The event rows' sweep (events/outbox.ts): dispatches rows a dead process left undispatched
 * and prunes dispatched ones past their retention. Runs in worker processes: once at start
 * (the embedded database belongs to this process, so every row left is a crash's: no grace)
 * and then on EVENT_SWEEP_CRON, a pg-boss schedule shared by every process (one run a minute,
 * whichever worker takes it).
 */
export const dispatchEventsJob: JobDefinition<typeof payload> = {
  id: 'dispatch-events',
  payload,
  schedule: { cron: EVENT_SWEEP_CRON },
  handler: async (ctx) => {
    await ctx.events.recover();
    await ctx.events.prune();
  },
  recover: async (ctx) => {
    await ctx.events.recover(ctx.database.kind === 'pglite' ? { graceSeconds: 0 } : {});
  },
};
