import type { FastifyInstance } from 'fastify';

// Being written (profile helper).
export async function genreRoutes(_app: FastifyInstance): Promise<void> {}
