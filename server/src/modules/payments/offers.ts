import { and, eq } from 'drizzle-orm';
import type { CheckoutOffer, TipOfferResponse, ThanksView } from '@margins/common/schemas/payments';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { readableManuscripts } from '../access/readable.ts';
import { signOffer, type Offer } from './signing.ts';

/** Where a subscriber lands after paying: the current-subscription panel. */
export const SUBSCRIBED_NEXT_URL = '/profile/#subscription';

/** A signed offer for a page to start a checkout with. */
export function checkoutOffer(ctx: AppContext, offer: Offer): CheckoutOffer {
  return { ...offer, sig: signOffer(ctx.config.sessionSecret, offer) };
}

/**
 * The Contribute modal's offer for a manuscript the viewer may open: its author, and a signed
 * tip target that comes back to the reader page. 404 for a manuscript they may not know.
 */
export async function tipOffer(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<TipOfferResponse> {
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
  return {
    offer: checkoutOffer(ctx, {
      tipType: 'manuscript',
      tipFor: String(row.id),
      nextUrl: `/manuscript/document/reader/${row.id}`,
    }),
    author: { id: row.authorId, display_name: row.authorName },
    manuscript: { id: row.id, title: row.title },
  };
}

/** What the thanks page shows for a checkout session: the tip, the gift, or "confirming". */
export async function thanksFor(ctx: AppContext, sessionId: string): Promise<ThanksView> {
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
  if (tip) {
    return {
      kind: 'tip',
      amount: tip.amount,
      author: { id: tip.authorId, display_name: tip.authorName },
      manuscript:
        tip.manuscriptId && tip.manuscriptTitle
          ? { id: tip.manuscriptId, title: tip.manuscriptTitle }
          : null,
      giftEmail: null,
    };
  }
  const [gift] = await ctx.db
    .select()
    .from(schema.gifts)
    .where(eq(schema.gifts.providerSessionId, sessionId));
  if (gift) {
    return {
      kind: 'gift',
      amount: gift.amount,
      author: null,
      manuscript: null,
      giftEmail: gift.recipientEmail,
    };
  }
  return { kind: 'pending', amount: 0, author: null, manuscript: null, giftEmail: null };
}
