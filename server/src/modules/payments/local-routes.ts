import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@margins/common';
import { localPayBody, localPayResponse } from '@margins/common/schemas/payments';
import { notFound } from '../../lib/http-errors.ts';
import { renderPage } from '../pages/render.ts';
import { openLocalSession, payLocalSession } from './local-checkout.ts';
import { LocalProvider } from './local-provider.ts';
import { requireProducts } from './policy.ts';
import { presentLocalCheckout } from './presenter.ts';
import { paymentsProvider } from './providers.ts';

const sessionParams = z.object({ session_id: z.string().min(1).max(100) });

/** The local provider's checkout page and its card form (only when it is the provider). */
export async function localPaymentRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  const localProvider = () => {
    requireProducts(ctx);
    const provider = paymentsProvider(ctx);
    if (!(provider instanceof LocalProvider)) throw notFound();
    return provider;
  };

  app.get(
    '/payments/local/checkout/:session_id',
    { schema: { hide: true, params: sessionParams } },
    async (request, reply) => {
      localProvider();
      const session = await openLocalSession(ctx, request.params.session_id);
      const checkout = session ? presentLocalCheckout(session) : null;
      return renderPage(request, reply, 'local-checkout', { checkout }, checkout ? 200 : 404);
    },
  );

  app.post(
    '/payments/local/checkout/:session_id/pay',
    {
      schema: {
        tags: ['payments'],
        summary: "Pays a local checkout with one of Stripe's test cards.",
        params: sessionParams,
        body: localPayBody,
        response: {
          200: localPayResponse,
          400: errorBody,
          402: errorBody,
          404: errorBody,
          410: errorBody,
        },
      },
    },
    async (request) =>
      payLocalSession(ctx, localProvider(), request.params.session_id, request.body),
  );
}
