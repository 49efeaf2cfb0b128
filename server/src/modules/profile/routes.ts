import type { FastifyInstance } from 'fastify';

// Being written (profile helper).
export async function profileRoutes(_app: FastifyInstance): Promise<void> {}
