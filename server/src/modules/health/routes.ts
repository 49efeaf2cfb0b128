import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { demoDataPending } from '../../seed/background.ts';
import type { Database } from '../../db/index.ts';

const healthResponse = z.object({
  /** True when the server and its database answer. */
  ok: z.boolean(),
  /** The database: "pglite" (embedded) or "postgres", with its state. */
  db: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  /** Only while the demo data of a first start is being created (after the server answers). */
  demo_data: z.literal('creating').optional(),
});

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/healthz',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_request, reply) => {
        const ok = await pingDatabase(app.ctx.database);
        const db = { kind: app.ctx.database.kind, ok };
        const answer = demoDataPending() ? { ok, db, demo_data: 'creating' as const } : { ok, db };
        return reply.status(ok ? 200 : 503).send(answer);
      },
    );
}

/**
 * True when the database answers a trivial query. Straight to the driver: a probe asked every
 * few seconds needs no query building (drizzle's PGlite path also copies its type parsers on
 * every query).
 */
async function pingDatabase(database: Pick<Database, 'pglite' | 'pool'>): Promise<boolean> {
  try {
    if (database.pglite) await database.pglite.query('select 1');
    else if (database.pool) await database.pool.query('select 1');
    else return false;
    return true;
  } catch {
    return false;
  }
}
