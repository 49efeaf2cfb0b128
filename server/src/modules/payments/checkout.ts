import { and, eq, isNull } from 'drizzle-orm';
import { MESSAGES } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import {
  CURRENCY,
  TIP_MAX_CENTS,
  TIP_MIN_CENTS,
  type TipType,
} from '@margins/common/payments-constants';
import { formatUsd } from '@margins/common/pricing';
import type { CheckoutSessionBody } from '@margins/common/schemas/payments';
import { sessionSecrets } from '../../config.ts';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { badRequest, conflict, HttpError, unauthorized } from '../../lib/http-errors.ts';
import { offeredPrice, providerPriceId } from './catalogue.ts';
import type { CheckoutInput, PaymentsProvider } from './provider.ts';
import { ownPath, verifyOffer } from './signing.ts';
import { syncCheckoutSession } from './sync.ts';
import { StripeProvider } from './stripe-provider.ts';
import { activeSubscriptionOf } from './subscriptions.ts';

/** Where the provider sends the payer back: our return route, which syncs and redirects. */
const completePath = (sessionId: string) => `/payments/complete/${sessionId}`;

/**
 * Where a payer coming back from the provider goes: the session is re-read (idempotent, as a
 * webhook would), then the thanks page (tips, gifts) or the page the checkout was started for.
 * Null when the session cannot be read (unknown, or the provider failing: logged).
 */
export async function checkoutReturnPath(
  ctx: AppContext,
  provider: PaymentsProvider,
  sessionId: string,
  origin: string,
  log: AppContext['log'],
): Promise<string | null> {
  const session = await syncCheckoutSession(ctx, provider, sessionId).catch((error) => {
    log.error({ err: error }, 'payments: session not re-read on return');
    return null;
  });
  if (!session) return null;
  const kind = session.metadata.kind;
  if (kind === 'tip' || kind === 'gift') return `/payments/thanks/${encodeURIComponent(sessionId)}`;
  return ownPath(session.metadata.nextUrl ?? '/', origin) ?? '/';
}

/**
 * Opens a checkout for SPEC §7's subscription payload (priceId: a plan, or with giftEmail a
 * gift of it) or tip payload (tipAmount). The signed offer (tipFor, nextUrl) is checked and
 * nextUrl must be a page of this site; the tip amount is bounded here, not by the client.
 */
export async function createCheckout(
  ctx: AppContext,
  provider: PaymentsProvider,
  user: UserRow | null,
  body: CheckoutSessionBody,
  origin: string,
): Promise<{ sessionUrl: string }> {
  const tipType: TipType = body.tipType ?? 'manuscript';
  const tipFor = body.tipFor ?? '';
  const nextUrl = body.nextUrl ?? '/';
  const nextPath = ownPath(nextUrl, origin);
  if (!nextPath) throw badRequest({ nextUrl: [PAYMENT_MESSAGES.foreignNextUrl] });
  const offer = { tipType, tipFor, nextUrl };
  const signedByUs = sessionSecrets(ctx.config).some((secret) =>
    verifyOffer(secret, offer, body.sig ?? ''),
  );
  if (!signedByUs) {
    throw badRequest({ sig: [PAYMENT_MESSAGES.badSignature] }, PAYMENT_MESSAGES.badSignature);
  }
  const urls = {
    successUrl: `${origin}${completePath('{CHECKOUT_SESSION_ID}')}`,
    cancelUrl: `${origin}${nextPath}`,
  };
  const metadata: Record<string, string> = { nextUrl: nextPath, tipFor, tipType };
  if (user) metadata.userId = String(user.id);

  let input: Omit<CheckoutInput, 'successUrl' | 'cancelUrl'>;
  if (body.priceId) {
    input = await planCheckout(ctx, provider, user, body.priceId, body.giftEmail, metadata);
  } else if (body.tipAmount !== undefined) {
    input = await tipCheckout(ctx, user, parseTipAmount(body.tipAmount), tipType, tipFor, metadata);
  } else {
    throw badRequest({ priceId: ['Choose a plan, or type an amount to tip.'] });
  }
  try {
    const session = await provider.createCheckoutSession({ ...input, ...urls });
    return { sessionUrl: session.url };
  } catch (error) {
    ctx.log.error({ err: error }, 'payments: checkout session not created');
    throw new HttpError(502, MESSAGES.unableToLoadPayment);
  }
}

async function planCheckout(
  ctx: AppContext,
  provider: PaymentsProvider,
  user: UserRow | null,
  priceId: string,
  giftEmail: string | undefined,
  metadata: Record<string, string>,
): Promise<Omit<CheckoutInput, 'successUrl' | 'cancelUrl'>> {
  if (!user) throw unauthorized(PAYMENT_MESSAGES.logInToSubscribe);
  let offered = await offeredPrice(ctx.db, priceId);
  if (offered && !providerPriceId(provider, offered.price) && provider instanceof StripeProvider) {
    // A plan Stripe does not know yet: create the catalogue there first.
    await provider.syncCatalogue(ctx.db).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'payments: catalogue not synced with Stripe');
      throw new HttpError(502, MESSAGES.unableToLoadPayment);
    });
    offered = await offeredPrice(ctx.db, priceId);
  }
  const providerId = offered ? providerPriceId(provider, offered.price) : null;
  if (!offered || !providerId) throw badRequest({ priceId: [PAYMENT_MESSAGES.priceUnknown] });
  const { price, product } = offered;
  const line = {
    amount: price.amount,
    currency: price.currency,
    interval: price.interval,
  };
  if (giftEmail) {
    // A gift is paid once: one period of the plan, redeemed by its code.
    return {
      mode: 'payment',
      customerEmail: user.email,
      line: {
        ...line,
        providerPriceId: null,
        description: `Gift: ${product.name}, one ${price.interval}`,
      },
      metadata: {
        ...metadata,
        kind: 'gift',
        giftEmail,
        productId: String(product.id),
        interval: price.interval,
      },
    };
  }
  if (await activeSubscriptionOf(ctx.db, user.id)) {
    throw conflict(PAYMENT_MESSAGES.alreadySubscribed);
  }
  return {
    mode: 'subscription',
    customerEmail: user.email,
    line: { ...line, providerPriceId: providerId, description: product.name },
    metadata: { ...metadata, kind: 'subscription', productId: String(product.id) },
  };
}

async function tipCheckout(
  ctx: AppContext,
  user: UserRow | null,
  amount: number,
  tipType: TipType,
  tipFor: string,
  metadata: Record<string, string>,
): Promise<Omit<CheckoutInput, 'successUrl' | 'cancelUrl'>> {
  const target = await tipTarget(ctx, tipType, tipFor);
  if (!target) throw badRequest({ tipFor: [PAYMENT_MESSAGES.tipTargetGone] });
  if (user && user.id === target.authorId) throw badRequest({ tipFor: [PAYMENT_MESSAGES.tipSelf] });
  return {
    mode: 'payment',
    customerEmail: user?.email ?? null,
    line: {
      providerPriceId: null,
      amount,
      currency: CURRENCY,
      interval: null,
      description: `Tip for ${target.label}`,
    },
    metadata: {
      ...metadata,
      kind: 'tip',
      authorId: String(target.authorId),
      ...(target.manuscriptId ? { manuscriptId: String(target.manuscriptId) } : {}),
    },
  };
}

/** Dollars as typed ("5", "7.50", "$3") → cents, within the tip bounds; else a 400. */
function parseTipAmount(typed: string | number): number {
  const text = String(typed).trim().replace(/^\$/, '');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) {
    throw badRequest({ tipAmount: [PAYMENT_MESSAGES.tipNotANumber] });
  }
  const cents = Math.round(Number(text) * 100);
  if (cents < TIP_MIN_CENTS) {
    throw badRequest({ tipAmount: [PAYMENT_MESSAGES.tipTooSmall(formatUsd(TIP_MIN_CENTS))] });
  }
  if (cents > TIP_MAX_CENTS) {
    throw badRequest({ tipAmount: [PAYMENT_MESSAGES.tipTooLarge(formatUsd(TIP_MAX_CENTS))] });
  }
  return cents;
}

/** Who a tip reaches: a live manuscript's author, or a user. */
async function tipTarget(
  ctx: AppContext,
  tipType: TipType,
  tipFor: string,
): Promise<{ authorId: number; manuscriptId: number | null; label: string } | null> {
  const id = Number(tipFor);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  if (tipType === 'author') {
    const [author] = await ctx.db
      .select({ id: schema.users.id, name: schema.users.displayName })
      .from(schema.users)
      .where(eq(schema.users.id, id));
    return author ? { authorId: author.id, manuscriptId: null, label: author.name } : null;
  }
  const [manuscript] = await ctx.db
    .select({ userId: schema.manuscripts.userId, title: schema.manuscripts.title })
    .from(schema.manuscripts)
    .where(and(eq(schema.manuscripts.id, id), isNull(schema.manuscripts.archivedAt)));
  if (!manuscript) return null;
  return { authorId: manuscript.userId, manuscriptId: id, label: `“${manuscript.title}”` };
}
