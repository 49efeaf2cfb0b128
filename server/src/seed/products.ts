import { count } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { schema } from '../db/index.ts';

/** The demo tiers of the pricing page: Free, and two paid ones with month and year prices. */
const DEMO_TIERS = [
  {
    slug: 'free',
    name: 'Free',
    description: 'Everything you need to share a first manuscript with your readers.',
    features: ['Unlimited readers and comments', 'Invites by link or e-mail', 'Questionnaires'],
    wordLimit: null,
    prices: [],
  },
  {
    slug: 'writer',
    name: 'Writer',
    description: 'Room for a whole series, and readers screened while you sleep.',
    features: [
      '1,000,000 words across your manuscripts',
      'Automatic reader approval',
      'Feedback surveys',
    ],
    wordLimit: 1_000_000,
    prices: [
      { interval: 'month', amount: 800 },
      { interval: 'year', amount: 7200 },
    ],
  },
  {
    slug: 'studio',
    name: 'Studio',
    description: 'For prolific writers and small presses with many books in progress.',
    features: [
      '5,000,000 words across your manuscripts',
      'Everything in Writer',
      'Priority conversion help',
    ],
    wordLimit: 5_000_000,
    prices: [
      { interval: 'month', amount: 2000 },
      { interval: 'year', amount: 18000 },
    ],
  },
] as const;

/**
 * Creates the demo tiers and a demo coupon (WELCOME10, 10 % off, 100 uses) when there are no
 * products yet. The free tier's limit is WORD_LIMIT_FREE.
 */
export async function seedDemoProducts(ctx: AppContext): Promise<void> {
  const [existing] = await ctx.db.select({ total: count() }).from(schema.products);
  if ((existing?.total ?? 0) > 0) return;
  await ctx.db.transaction(async (tx) => {
    for (const tier of DEMO_TIERS) {
      const [product] = await tx
        .insert(schema.products)
        .values({
          slug: tier.slug,
          name: tier.name,
          description: tier.description,
          marketingFeatures: [...tier.features],
          wordLimit: tier.wordLimit ?? ctx.config.wordLimitFree,
        })
        .returning();
      for (const price of tier.prices) {
        await tx.insert(schema.prices).values({
          productId: product!.id,
          interval: price.interval,
          amount: price.amount,
          lookupKey: `${tier.slug}_${price.interval}`,
        });
      }
    }
    await tx
      .insert(schema.coupons)
      .values({ code: 'WELCOME10', percentOff: 10, maxRedemptions: 100 })
      .onConflictDoNothing();
  });
}
