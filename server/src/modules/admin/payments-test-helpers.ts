import { randomBytes } from 'node:crypto';
import { schema, type Executor } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';

const unique = () => randomBytes(4).toString('hex');

export async function buildProduct(db: Executor, values: { name?: string; slug?: string } = {}) {
  const tag = unique();
  const [product] = await db
    .insert(schema.products)
    .values({
      slug: values.slug ?? `tier-${tag}`,
      name: values.name ?? `Tier ${tag}`,
      wordLimit: 1000,
    })
    .returning();
  await db.insert(schema.prices).values([
    { productId: product!.id, interval: 'month', amount: 900, lookupKey: `tier_${tag}_month` },
    { productId: product!.id, interval: 'year', amount: 9000, lookupKey: `tier_${tag}_year` },
  ]);
  return product!;
}

export async function buildCoupon(db: Executor, code = `SAVE${unique().toUpperCase()}`) {
  const [row] = await db.insert(schema.coupons).values({ code, percentOff: 10 }).returning();
  return row!;
}

export async function buildGift(db: Executor, recipientEmail = `friend-${unique()}@example.test`) {
  const product = await buildProduct(db);
  const [row] = await db
    .insert(schema.gifts)
    .values({
      code: `GIFT-SECRET-${unique()}`,
      purchaserId: (await buildUser(db)).id,
      recipientEmail,
      productId: product.id,
      interval: 'year',
      amount: 9000,
      provider: 'local',
      providerSessionId: `cs_${unique()}`,
    })
    .returning();
  return row!;
}

export async function buildWaitingListEntry(db: Executor, email = `wait-${unique()}@example.test`) {
  const [row] = await db.insert(schema.waitingList).values({ email }).returning();
  return row!;
}

/** A subscription as sync.ts would have stored it. */
export async function buildSubscription(
  db: Executor,
  values: { status?: string; createdAt?: Date } = {},
) {
  const product = await buildProduct(db);
  const [row] = await db
    .insert(schema.subscriptions)
    .values({
      userId: (await buildUser(db)).id,
      productId: product.id,
      provider: 'local',
      providerSubscriptionId: `sub_${unique()}`,
      status: values.status ?? 'active',
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
      amount: 900,
      interval: 'month',
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    })
    .returning();
  return row!;
}

/** One new row of each payment section (the authorization matrix's factories). */
export function paymentSectionFactories(db: Executor): Record<string, () => Promise<number>> {
  return {
    product: async () => (await buildProduct(db)).id,
    coupon: async () => (await buildCoupon(db)).id,
    gift: async () => (await buildGift(db)).id,
    'waiting-list': async () => (await buildWaitingListEntry(db)).id,
  };
}
