import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { webDist } from '../paths.ts';

/** The built web app: hashed assets, /static/{filename} and /favicon.ico. */
export async function registerStatic(app: FastifyInstance, dist = webDist): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(dist, 'assets'),
    prefix: '/assets/',
    maxAge: '365d',
    immutable: true,
    // .br and .gz siblings written at build time (web/scripts/precompress.mjs).
    preCompressed: true,
  });
  await app.register(fastifyStatic, {
    root: path.join(dist, 'static'),
    prefix: '/static/',
    decorateReply: false,
    maxAge: '1h',
    preCompressed: true,
  });
  app.get('/favicon.ico', { schema: { hide: true } }, (request, reply) => {
    if (!existsSync(path.join(dist, 'favicon.ico'))) return reply.status(404).send();
    return reply.sendFile('favicon.ico', dist);
  });
}
