import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthResponse = z.object({
  /** True when the server and its database answer. */
  ok: z.boolean(),
  /** The database: "pglite" (embedded) or "postgres", with its state. */
  db: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
});

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/healthz',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_request, reply) => {
        const ok = await app.ctx.db
          .execute(sql`select 1`)
          .then(() => true)
          .catch(() => false);
        return reply.status(ok ? 200 : 503).send({ ok, db: { kind: app.ctx.database.kind, ok } });
      },
    );
}
