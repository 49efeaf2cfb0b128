import type { FastifyInstance } from 'fastify';

// Being written (profile helper).
export async function mediaRoutes(_app: FastifyInstance): Promise<void> {}
