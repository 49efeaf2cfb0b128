import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '@margins/common';
import {
  renewalBody,
  renewalParams,
  renewalResponse,
  subscriptionsResponse,
} from '@margins/common/schemas/payments';
import { requireUser } from '../../plugins/session.ts';
import { presentSubscription, presentSubscriptions } from './presenter.ts';
import { paymentsProvider } from './providers.ts';
import { changeRenewal, listSubscriptions } from './subscriptions.ts';

const tags = ['payments'];

/** The current-subscription panel's calls (SPEC §7). */
export async function subscriptionRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get(
    '/profile/account/subscriptions',
    {
      schema: {
        tags,
        summary: "The caller's active subscriptions and the product in force.",
        response: { 200: subscriptionsResponse, 401: errorBody },
      },
    },
    async (request) => {
      const { rows, productInForce } = await listSubscriptions(ctx, requireUser(request));
      return presentSubscriptions(rows, productInForce);
    },
  );

  app.post(
    '/profile/account/subscription/renewal/:status',
    {
      schema: {
        tags,
        summary: 'Cancel Renewal (cancel) or Keep Subscription (renew); answers the subscription.',
        params: renewalParams,
        body: renewalBody,
        response: {
          200: renewalResponse,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          502: errorBody,
        },
      },
    },
    async (request) => {
      const { subscription, product } = await changeRenewal(
        ctx,
        paymentsProvider(ctx),
        requireUser(request),
        request.params.status,
        request.body.subscriptionId,
      );
      return { subscription: presentSubscription(subscription, product.name) };
    },
  );
}
