import { and, asc, eq } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { PaymentsProvider } from './provider.ts';

export type ProductRow = typeof schema.products.$inferSelect;
export type PriceRow = typeof schema.prices.$inferSelect;

/** The id a provider knows a price by: Stripe's price id, or our lookup key locally. */
export function providerPriceId(provider: PaymentsProvider, price: PriceRow): string | null {
  return provider.name === 'stripe' ? price.stripePriceId : price.lookupKey;
}

/** The price (and its product) a provider's price id names, or null. */
export async function priceByProviderId(
  executor: Executor,
  provider: PaymentsProvider['name'],
  id: string,
): Promise<{ price: PriceRow; product: ProductRow } | null> {
  const column = provider === 'stripe' ? schema.prices.stripePriceId : schema.prices.lookupKey;
  const [row] = await executor
    .select({ price: schema.prices, product: schema.products })
    .from(schema.prices)
    .innerJoin(schema.products, eq(schema.products.id, schema.prices.productId))
    .where(eq(column, id));
  return row ?? null;
}

/** The active price a client's priceId (our lookup key) names, with its product. */
export async function offeredPrice(
  executor: Executor,
  priceId: string,
): Promise<{ price: PriceRow; product: ProductRow } | null> {
  const [row] = await executor
    .select({ price: schema.prices, product: schema.products })
    .from(schema.prices)
    .innerJoin(schema.products, eq(schema.products.id, schema.prices.productId))
    .where(
      and(
        eq(schema.prices.lookupKey, priceId),
        eq(schema.prices.active, true),
        eq(schema.products.active, true),
      ),
    );
  return row ?? null;
}

/** The active products, each with its active prices (one row per price), by product id. */
export async function activeProductRows(executor: Executor) {
  return executor
    .select({ product: schema.products, price: schema.prices })
    .from(schema.products)
    .leftJoin(
      schema.prices,
      and(eq(schema.prices.productId, schema.products.id), eq(schema.prices.active, true)),
    )
    .where(eq(schema.products.active, true))
    .orderBy(asc(schema.products.id), asc(schema.prices.id));
}
