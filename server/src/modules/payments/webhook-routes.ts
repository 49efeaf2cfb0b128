import type { FastifyInstance } from 'fastify';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { providerEventObject, providerWebhookEvent } from '@margins/common/schemas/payments';
import { badRequest, HttpError } from '../../lib/http-errors.ts';
import { paymentsProvider } from './providers.ts';
import { stripeSdk } from './stripe-provider.ts';
import type { ProviderEvent } from './provider.ts';
import { handleProviderEvent, ProviderUnreadable } from './sync.ts';

/**
 * The signed body as an event, or null when it is none (not JSON, not an object with a string
 * id and type); its object's id when it has one we could re-read.
 */
function eventOf(body: unknown): ProviderEvent | null {
  const event = providerWebhookEvent.safeParse(body);
  if (!event.success) return null;
  const object = providerEventObject.safeParse(body);
  return {
    id: event.data.id,
    type: event.data.type,
    objectId: object.success ? object.data.data.object.id : null,
  };
}

/**
 * POST /payments/webhook: the raw body's Stripe signature is verified with the SDK (forged,
 * stale or missing → 400, nothing read or written); a body that is not an event is a 400; an
 * event then triggers the idempotent sync (sync.ts), which re-reads the object from Stripe and
 * ignores (200, nothing written) a type or shape it does not handle, so a new API version or
 * event type is not retried for days. 503 only when Stripe could not be read.
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
      const sdk = stripeSdk();
      let parsed: unknown;
      try {
        parsed = sdk.webhooks.constructEvent(body, signature, secret);
      } catch (error) {
        // Signed but not JSON (or a thin v2 notification the SDK will not build): not an event.
        const unsigned = error instanceof sdk.errors.StripeSignatureVerificationError;
        throw badRequest(
          {},
          unsigned ? PAYMENT_MESSAGES.webhookUnsigned : PAYMENT_MESSAGES.webhookNotAnEvent,
        );
      }
      const event = eventOf(parsed);
      if (!event) throw badRequest({}, PAYMENT_MESSAGES.webhookNotAnEvent);
      const provider = paymentsProvider(ctx);
      const outcome = await handleProviderEvent(ctx, provider, event).catch((error: unknown) => {
        if (!(error instanceof ProviderUnreadable)) throw error;
        // Stripe retries an event until it gets a 2xx: a 503 asks for that, and nothing is stored.
        request.log.error({ err: error.cause, event: event.id }, 'payments: webhook sync failed');
        throw new HttpError(503, PAYMENT_MESSAGES.webhookRetry);
      });
      const logged = { event: event.id, type: event.type, object: event.objectId, outcome };
      if (outcome === 'ignored') {
        request.log.info(logged, 'payments: webhook ignored (a type or shape we do not handle)');
      } else {
        request.log.info(logged, 'payments: webhook');
      }
      return { received: true, outcome };
    },
  );
}
