import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { webDist } from '../paths.ts';

/** The built web app: hashed assets, /static/{filename} and /favicon.ico. */
export async function registerStatic(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(webDist, 'assets'),
    prefix: '/assets/',
    maxAge: '365d',
    immutable: true,
  });
  await app.register(fastifyStatic, {
    root: path.join(webDist, 'static'),
    prefix: '/static/',
    decorateReply: false,
    maxAge: '1h',
  });
  app.get('/favicon.ico', { schema: { hide: true } }, (request, reply) => {
    if (!existsSync(path.join(webDist, 'favicon.ico'))) return reply.status(404).send();
    return reply.sendFile('favicon.ico', webDist);
  });
}
