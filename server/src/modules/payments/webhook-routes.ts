import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { badRequest, HttpError } from '../../lib/http-errors.ts';
import { paymentsProvider } from './providers.ts';
import { stripeSdk } from './stripe-provider.ts';
import type { ProviderEvent } from './provider.ts';
import { handleProviderEvent } from './sync.ts';

/** The object id of a Stripe event (a session, a subscription…). */
function objectIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as { id?: unknown };
  return typeof object.id === 'string' ? object.id : null;
}

/**
 * POST /payments/webhook: the raw body's Stripe signature is verified with the SDK (forged,
 * stale or missing → 400, nothing read or written); the event then triggers the idempotent
 * sync (sync.ts), which re-reads the object from Stripe.
 */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  // The signature covers the exact bytes: keep them (this plugin only).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/payments/webhook',
    { config: { csrf: false }, schema: { hide: true } },
    async (request) => {
      const secret = ctx.config.stripeWebhookSecret;
      if (!secret) throw badRequest({}, PAYMENT_MESSAGES.webhookNotConfigured);
      const signature = request.headers['stripe-signature'];
      const body = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(body)) {
        throw badRequest({}, PAYMENT_MESSAGES.webhookUnsigned);
      }
      let event: Stripe.Event;
      try {
        event = stripeSdk().webhooks.constructEvent(body, signature, secret);
      } catch {
        throw badRequest({}, PAYMENT_MESSAGES.webhookUnsigned);
      }
      const provider = paymentsProvider(ctx);
      const verified: ProviderEvent = {
        id: event.id,
        type: event.type,
        objectId: objectIdOf(event),
      };
      const outcome = await handleProviderEvent(ctx, provider, verified).catch((error: unknown) => {
        // Stripe retries an event until it gets a 2xx: a 503 asks for that, and nothing is stored.
        request.log.error({ err: error, event: event.id }, 'payments: webhook sync failed');
        throw new HttpError(503, PAYMENT_MESSAGES.webhookRetry);
      });
      request.log.info({ event: event.id, type: event.type, outcome }, 'payments: webhook');
      return { received: true, outcome };
    },
  );
}
