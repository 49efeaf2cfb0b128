import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@margins/common';
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
import { activeProductRows } from './catalogue.ts';
import { checkoutReturnPath, createCheckout } from './checkout.ts';
import { redeemGift } from './gifts.ts';
import { pricingPage, thanksFor, tipOffer } from './offers.ts';
import { requireProducts } from './policy.ts';
import {
  presentProducts,
  presentReceivedTips,
  presentSubscription,
  presentThanks,
  presentTipOffer,
} from './presenter.ts';
import { paymentsProvider } from './providers.ts';
import { receivedTips } from './tips.ts';
import { joinWaitingList } from './waiting-list.ts';

const tags = ['payments'];

/** The origin links and return URLs are built on (PUBLIC_URL, else the request's). */
const originOf = (ctx: AppContext) => linkBaseUrl(ctx.config);

/** Pricing page, waiting list, products, checkout, tips, the return and thanks pages, gifts. */
export async function paymentRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  for (const url of ['/products/', '/products']) {
    // The pricing page; without productsEnabled it keeps only the waiting list.
    app.get(url, { schema: { hide: true } }, async (request, reply) =>
      renderPage(request, reply, 'products', await pricingPage(ctx, request.user)),
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
      return { products: presentProducts(await activeProductRows(ctx.db)) };
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
      const { offer, manuscript } = await tipOffer(ctx, request.user, request.query.manuscript_id);
      return presentTipOffer(offer, manuscript);
    },
  );

  // The provider's success URL: re-reads the session, then goes on (checkoutReturnPath).
  app.get(
    '/payments/complete/:session_id',
    { schema: { hide: true, params: z.object({ session_id: z.string().min(1).max(300) }) } },
    async (request, reply) => {
      const next = await checkoutReturnPath(
        ctx,
        paymentsProvider(ctx),
        request.params.session_id,
        originOf(ctx),
        request.log,
      );
      if (!next) throw notFound();
      return reply.redirect(next);
    },
  );

  app.get(
    '/payments/thanks/:session_id',
    { schema: { hide: true, params: z.object({ session_id: z.string().min(1).max(300) }) } },
    async (request, reply) =>
      renderPage(request, reply, 'payment-thanks', {
        thanks: presentThanks(await thanksFor(ctx, request.params.session_id)),
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
    async (request) => {
      const { rows, total } = await receivedTips(ctx.db, requireUser(request).id);
      return presentReceivedTips(rows, total);
    },
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
      const { message, subscription, productName } = await redeemGift(ctx, user, request.body.code);
      return { message, subscription: presentSubscription(subscription, productName) };
    },
  );
}
