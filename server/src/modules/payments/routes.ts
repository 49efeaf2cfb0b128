import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import {
  checkoutSessionBody,
  checkoutSessionResponse,
  giftRedeemBody,
  giftRedeemResponse,
  productsResponse,
  receivedTipsResponse,
  tipOfferQuery,
  tipOfferResponse,
  waitingListBody,
  waitingListResponse,
} from '@margins/common/schemas/payments';
import type { AppContext } from '../../context.ts';
import { notFound, tooMany } from '../../lib/http-errors.ts';
import { linkBaseUrl } from '../../plugins/link-base.ts';
import { requireUser } from '../../plugins/session.ts';
import { renderPage } from '../pages/render.ts';
import { listProducts } from './catalogue.ts';
import { createCheckout } from './checkout.ts';
import { redeemGift } from './gifts.ts';
import { checkoutOffer, SUBSCRIBED_NEXT_URL, thanksFor, tipOffer } from './offers.ts';
import { paymentsProvider } from './providers.ts';
import { ownPath } from './signing.ts';
import { activeSubscriptionOf } from './subscriptions.ts';
import { syncCheckoutSession } from './sync.ts';
import { receivedTips } from './tips.ts';
import { joinWaitingList } from './waiting-list.ts';

const tags = ['payments'];

/** Checkout and tips exist only with productsEnabled (SPEC §6): otherwise 404. */
export function requireProducts(ctx: AppContext): void {
  if (!ctx.config.productsEnabled) throw notFound(PAYMENT_MESSAGES.productsDisabled);
}

/** The origin links and return URLs are built on (PUBLIC_URL, else the request's). */
const originOf = (ctx: AppContext) => linkBaseUrl(ctx.config);

/** Pricing page, waiting list, products, checkout, tips, the return and thanks pages, gifts. */
export async function paymentRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  const pricingPage = async (request: FastifyRequest) => ({
    products: ctx.config.productsEnabled ? await listProducts(ctx.db) : {},
    checkout: checkoutOffer(ctx, {
      tipType: 'manuscript',
      tipFor: '',
      nextUrl: SUBSCRIBED_NEXT_URL,
    }),
    subscribed: request.user
      ? (await activeSubscriptionOf(ctx.db, request.user.id)) !== null
      : false,
  });

  for (const url of ['/products/', '/products']) {
    // The pricing page; without productsEnabled it keeps only the waiting list.
    app.get(url, { schema: { hide: true } }, async (request, reply) =>
      renderPage(request, reply, 'products', await pricingPage(request)),
    );
    app.post(
      url,
      {
        schema: {
          tags,
          hide: url === '/products',
          summary: 'Joins the waiting list (a confirmation mail; once per address).',
          body: waitingListBody,
          response: { 200: waitingListResponse, 400: errorBody, 429: errorBody },
        },
      },
      async (request) => {
        if (!(await ctx.limits.mailPerAccount.hit(`waiting-list:${request.ip}`))) throw tooMany();
        return { message: await joinWaitingList(ctx, request.body.email) };
      },
    );
  }

  app.get(
    '/payments/products',
    {
      schema: {
        tags,
        summary: 'The products of the pricing page, keyed by id (SPEC §3 Product).',
        response: { 200: productsResponse, 404: errorBody },
      },
    },
    async () => {
      requireProducts(ctx);
      return { products: await listProducts(ctx.db) };
    },
  );

  app.post(
    '/payments/checkout-session',
    {
      schema: {
        tags,
        summary: 'Opens a checkout: a plan (priceId), a gift of one (giftEmail) or a tip.',
        body: checkoutSessionBody,
        response: {
          200: checkoutSessionResponse,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
        },
      },
    },
    async (request) => {
      requireProducts(ctx);
      return createCheckout(ctx, paymentsProvider(ctx), request.user, request.body, originOf(ctx));
    },
  );

  app.get(
    '/payments/tip-offer',
    {
      schema: {
        tags,
        summary: "The Contribute modal's signed offer for a manuscript the caller may open.",
        querystring: tipOfferQuery,
        response: { 200: tipOfferResponse, 404: errorBody },
      },
    },
    async (request) => {
      requireProducts(ctx);
      return tipOffer(ctx, request.user, request.query.manuscript_id);
    },
  );

  // The provider's success URL: re-reads the session (idempotent, as a webhook would), then
  // goes on to the thanks page (tips, gifts) or the page the checkout was started for.
  app.get(
    '/payments/complete/:session_id',
    { schema: { hide: true, params: z.object({ session_id: z.string().min(1).max(300) }) } },
    async (request, reply) => {
      const provider = paymentsProvider(ctx);
      const sessionId = request.params.session_id;
      const session = await syncCheckoutSession(ctx, provider, sessionId).catch((error) => {
        request.log.error({ err: error }, 'payments: session not re-read on return');
        return null;
      });
      if (!session) throw notFound();
      const kind = session.metadata.kind;
      if (kind === 'tip' || kind === 'gift') {
        return reply.redirect(`/payments/thanks/${encodeURIComponent(sessionId)}`);
      }
      const next = ownPath(session.metadata.nextUrl ?? '/', originOf(ctx)) ?? '/';
      return reply.redirect(next);
    },
  );

  app.get(
    '/payments/thanks/:session_id',
    { schema: { hide: true, params: z.object({ session_id: z.string().min(1).max(300) }) } },
    async (request, reply) =>
      renderPage(request, reply, 'payment-thanks', {
        thanks: await thanksFor(ctx, request.params.session_id),
      }),
  );

  app.get(
    '/payments/tips/received',
    {
      schema: {
        tags,
        summary: 'The tips the logged-in author received, newest first, and their total.',
        response: { 200: receivedTipsResponse, 401: errorBody },
      },
    },
    async (request) => receivedTips(ctx.db, requireUser(request).id),
  );

  app.post(
    '/payments/gifts/redeem',
    {
      schema: {
        tags,
        summary: 'Redeems a gift code: its plan for one period, not renewing.',
        body: giftRedeemBody,
        response: { 200: giftRedeemResponse, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!(await ctx.limits.mailPerAccount.hit(`gift-redeem:${user.id}`))) throw tooMany();
      return redeemGift(ctx, user, request.body.code);
    },
  );
}
