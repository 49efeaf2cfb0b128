import { and, asc, eq } from 'drizzle-orm';
import type { Product } from '@margins/common/schemas/payments';
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

/** The active products with their active prices (SPEC §3 Product), keyed by product id. */
export async function listProducts(executor: Executor): Promise<Record<string, Product>> {
  const rows = await executor
    .select({ product: schema.products, price: schema.prices })
    .from(schema.products)
    .leftJoin(
      schema.prices,
      and(eq(schema.prices.productId, schema.products.id), eq(schema.prices.active, true)),
    )
    .where(eq(schema.products.active, true))
    .orderBy(asc(schema.products.id), asc(schema.prices.id));
  const products: Record<string, Product> = {};
  for (const { product, price } of rows) {
    const presented = (products[product.id] ??= presentProduct(product));
    if (price) {
      presented.prices[price.interval] = {
        id: price.lookupKey,
        amount: price.amount,
        currency: price.currency,
      };
    }
  }
  for (const product of Object.values(products)) {
    product.default_price = product.prices.year?.id ?? product.prices.month?.id ?? null;
  }
  return products;
}

function presentProduct(product: ProductRow): Product {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    default_price: null,
    prices: {},
    marketing_features: product.marketingFeatures.map((name) => ({ name })),
    word_limit: product.wordLimit,
  };
}
