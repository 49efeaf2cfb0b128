import type { FastifyInstance } from 'fastify';
import { localPaymentRoutes } from './local-routes.ts';
import { paymentRoutes } from './routes.ts';
import { subscriptionRoutes } from './subscription-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';

/** Every payments route (one line in app.ts). */
export async function registerPaymentRoutes(app: FastifyInstance): Promise<void> {
  await app.register(paymentRoutes);
  await app.register(subscriptionRoutes);
  await app.register(localPaymentRoutes);
  await app.register(webhookRoutes);
}
