import { and, eq } from 'drizzle-orm';
import type { CheckoutOffer, Product } from '@margins/common/schemas/payments';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { readableManuscripts } from '../access/readable.ts';
import { activeProductRows } from './catalogue.ts';
import { presentProducts, type TipThanks } from './presenter.ts';
import { signOffer, type Offer } from './signing.ts';
import { activeSubscriptionOf } from './subscriptions.ts';

type GiftRow = typeof schema.gifts.$inferSelect;

/** Where a subscriber lands after paying: the current-subscription panel. */
export const SUBSCRIBED_NEXT_URL = '/profile/#subscription';

/** A signed offer for a page to start a checkout with. */
export function checkoutOffer(ctx: AppContext, offer: Offer): CheckoutOffer {
  return { ...offer, sig: signOffer(ctx.config.sessionSecret, offer) };
}

/**
 * The pricing page's configuration: the products (none without productsEnabled), a signed
 * offer to subscribe with, and whether the viewer is subscribed already.
 */
export async function pricingPage(
  ctx: AppContext,
  viewer: UserRow | null,
): Promise<{ products: Record<string, Product>; checkout: CheckoutOffer; subscribed: boolean }> {
  return {
    products: ctx.config.productsEnabled ? presentProducts(await activeProductRows(ctx.db)) : {},
    checkout: checkoutOffer(ctx, {
      tipType: 'manuscript',
      tipFor: '',
      nextUrl: SUBSCRIBED_NEXT_URL,
    }),
    subscribed: viewer ? (await activeSubscriptionOf(ctx.db, viewer.id)) !== null : false,
  };
}

/**
 * The Contribute modal's offer for a manuscript the viewer may open: a signed tip target that
 * comes back to the reader page, and the manuscript with its author. 404 for a manuscript they
 * may not know.
 */
export async function tipOffer(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<{
  offer: CheckoutOffer;
  manuscript: { id: number; title: string; authorId: number; authorName: string };
}> {
  const [row] = await ctx.db
    .select({
      id: schema.manuscripts.id,
      title: schema.manuscripts.title,
      authorId: schema.users.id,
      authorName: schema.users.displayName,
    })
    .from(schema.manuscripts)
    .innerJoin(schema.users, eq(schema.users.id, schema.manuscripts.userId))
    .where(and(eq(schema.manuscripts.id, manuscriptId), readableManuscripts(viewer)));
  if (!row) throw notFound();
  const offer = checkoutOffer(ctx, {
    tipType: 'manuscript',
    tipFor: String(row.id),
    nextUrl: `/manuscript/document/reader/${row.id}`,
  });
  return { offer, manuscript: row };
}

/** What a checkout session paid for, once synced: the tip, the gift, or null (not yet). */
export async function thanksFor(
  ctx: AppContext,
  sessionId: string,
): Promise<{ tip: TipThanks } | { gift: GiftRow } | null> {
  const [tip] = await ctx.db
    .select({
      amount: schema.tips.amount,
      authorId: schema.users.id,
      authorName: schema.users.displayName,
      manuscriptId: schema.manuscripts.id,
      manuscriptTitle: schema.manuscripts.title,
    })
    .from(schema.tips)
    .innerJoin(schema.users, eq(schema.users.id, schema.tips.authorId))
    .leftJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.tips.manuscriptId))
    .where(eq(schema.tips.providerSessionId, sessionId));
  if (tip) return { tip };
  const [gift] = await ctx.db
    .select()
    .from(schema.gifts)
    .where(eq(schema.gifts.providerSessionId, sessionId));
  return gift ? { gift } : null;
}
