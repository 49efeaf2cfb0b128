import { MINOR_UNITS_PER_MAJOR, type PriceInterval } from './payments-constants.ts';
import type { Product } from './schemas/payments.ts';

/** Minor units → "$12" or "$7.50" (SPEC §9: divide by 100, shown in USD). */
export function formatUsd(minor: number): string {
  const major = minor / MINOR_UNITS_PER_MAJOR;
  return Number.isInteger(major) ? `$${major}` : `$${major.toFixed(2)}`;
}

/** What one product's card shows for the chosen interval (SPEC §2 Pricing page). */
export interface PriceDisplay {
  /** "FREE", "$96" … */
  amount: string;
  /** "FOREVER", "/ year", "/ month". */
  per: string;
  /** "save $24 per year!" when twelve monthly payments cost more than the yearly price. */
  savings: string | null;
  /** The price checkout takes; null for a free product (nothing to buy). */
  priceId: string | null;
}

/** The card of a product for an interval; null when the product has no price for it. */
export function priceDisplay(product: Product, interval: PriceInterval): PriceDisplay | null {
  const { month, year } = product.prices;
  // A product with no price at all is the free tier.
  if (!month && !year) return { amount: 'FREE', per: 'FOREVER', savings: null, priceId: null };
  const price = product.prices[interval];
  if (!price) return null;
  if (price.amount === 0) return { amount: 'FREE', per: 'FOREVER', savings: null, priceId: null };
  const savings =
    interval === 'year' && month && month.amount * 12 > price.amount
      ? `save ${formatUsd(month.amount * 12 - price.amount)} per year!`
      : null;
  return { amount: formatUsd(price.amount), per: `/ ${interval}`, savings, priceId: price.id };
}

/** What a product costs in a year: its yearly price, else twelve monthly ones. */
export function yearlyAmount(product: Product): number {
  const { year, month } = product.prices;
  if (year) return year.amount;
  if (month) return month.amount * 12;
  return 0;
}

/** Products in the order of the pricing page: by yearly amount, ascending (SPEC §2). */
export function sortForPricing(products: Product[]): Product[] {
  return [...products].sort((a, b) => yearlyAmount(a) - yearlyAmount(b) || a.id - b.id);
}
