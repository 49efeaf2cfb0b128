import type { FastifyInstance } from 'fastify';
import { readFeatures, readFeaturesNow, seedFeatures, type Features } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The runtime switches in force for this request (modules/features). */
    features: Features;
  }
}

/**
 * Seeds the switches on first start and gives every request the switches in force
 * (request.features), read through the short cache: the page configuration and any route read
 * them there, so an admin's change needs no restart.
 */
export async function registerFeatures(app: FastifyInstance): Promise<void> {
  await seedFeatures(app.ctx.db, app.ctx.config);
  app.decorateRequest('features', null as unknown as Features);
  // Not async: while the copy is fresh (nearly every request) it is attached in the same turn.
  app.addHook('onRequest', (request, _reply, done) => {
    const now = readFeaturesNow(app.ctx);
    if (now) {
      request.features = now;
      return done();
    }
    readFeatures(app.ctx).then((features) => {
      request.features = features;
      done();
    }, done);
  });
}
