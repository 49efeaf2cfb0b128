import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { demoDataPending } from '../../seed/background.ts';
import { DatabaseProbe } from './database-probe.ts';

const healthResponse = z.object({
  /** True when the server answers and its database did within the last seconds (database-probe.ts). */
  ok: z.boolean(),
  /** The database: "pglite" (embedded) or "postgres", with its state. */
  db: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  /** Only while the demo data of a first start is being created (after the server answers). */
  demo_data: z.literal('creating').optional(),
});

const readyResponse = z.object({
  ready: z.boolean(),
  /** Why not: draining (a SIGTERM), database (it does not answer), jobs (the queue is not running). */
  reason: z.enum(['draining', 'database', 'jobs']).optional(),
});

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const database = new DatabaseProbe(app.ctx.db);
  const notReadyBecause = async () => {
    if (app.ctx.lifecycle.draining) return 'draining' as const;
    if (!(await database.ok())) return 'database' as const;
    if (!app.ctx.jobs.running) return 'jobs' as const;
    return null;
  };
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/healthz',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_request, reply) => {
        const ok = await database.ok();
        const db = { kind: app.ctx.database.kind, ok };
        const answer = demoDataPending() ? { ok, db, demo_data: 'creating' as const } : { ok, db };
        return reply.status(ok ? 200 : 503).send(answer);
      },
    )
    // Readiness: whether a balancer should send this process requests. Migrations ran before
    // the app was built, so a process that answers here has them; every role starts the job
    // queue (a web process to send jobs, the others to run them as well).
    .get(
      '/readyz',
      { schema: { tags: ['health'], response: { 200: readyResponse, 503: readyResponse } } },
      async (_request, reply) => {
        const reason = await notReadyBecause();
        if (reason) return reply.status(503).send({ ready: false, reason });
        return reply.send({ ready: true });
      },
    );
}
