import { describe, expect, it } from 'vitest';
import { formatUsd, priceDisplay, sortForPricing } from './pricing.ts';
import type { Product } from './schemas/payments.ts';

function productWith(id: number, prices: { month?: number; year?: number }): Product {
  const price = (interval: string, amount: number | undefined) =>
    amount === undefined ? undefined : { id: `p${id}_${interval}`, amount, currency: 'usd' };
  return {
    id,
    name: `Product ${id}`,
    description: '',
    default_price: null,
    prices: { month: price('month', prices.month), year: price('year', prices.year) },
    marketing_features: [],
    word_limit: 0,
  };
}

describe('priceDisplay (SPEC §2 pricing rules)', () => {
  const cases: {
    name: string;
    prices: { month?: number; year?: number };
    month: string | null;
    year: string | null;
  }[] = [
    { name: 'free (no prices)', prices: {}, month: 'FREE FOREVER -', year: 'FREE FOREVER -' },
    {
      name: 'free (zero prices)',
      prices: { month: 0, year: 0 },
      month: 'FREE FOREVER -',
      year: 'FREE FOREVER -',
    },
    { name: 'month only', prices: { month: 500 }, month: '$5 / month -', year: null },
    { name: 'year only', prices: { year: 4800 }, month: null, year: '$48 / year -' },
    {
      name: 'both, yearly saves',
      prices: { month: 800, year: 7200 },
      month: '$8 / month -',
      year: '$72 / year save $24 per year!',
    },
    {
      name: 'both, no saving (twelve months cost the same)',
      prices: { month: 500, year: 6000 },
      month: '$5 / month -',
      year: '$60 / year -',
    },
    {
      name: 'both, yearly dearer',
      prices: { month: 500, year: 6500 },
      month: '$5 / month -',
      year: '$65 / year -',
    },
    {
      name: 'cents',
      prices: { month: 799, year: 7999 },
      month: '$7.99 / month -',
      year: '$79.99 / year save $15.89 per year!',
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, () => {
      const product = productWith(1, testCase.prices);
      const show = (interval: 'month' | 'year') => {
        const display = priceDisplay(product, interval);
        return display ? `${display.amount} ${display.per} ${display.savings ?? '-'}` : null;
      };
      expect(show('month')).toBe(testCase.month);
      expect(show('year')).toBe(testCase.year);
    });
  }

  it('gives the price id to buy, and none for a free product', () => {
    expect(priceDisplay(productWith(3, { month: 800, year: 7200 }), 'year')?.priceId).toBe(
      'p3_year',
    );
    expect(priceDisplay(productWith(4, {}), 'year')?.priceId).toBeNull();
  });
});

describe('sortForPricing', () => {
  it('orders by yearly amount ascending, twelve months standing in for a missing year', () => {
    const sorted = sortForPricing([
      productWith(1, { month: 1500, year: 15000 }),
      productWith(2, {}),
      productWith(3, { month: 500 }),
      productWith(4, { year: 4800 }),
    ]);
    expect(sorted.map((product) => product.id)).toEqual([2, 4, 3, 1]);
  });
});

describe('formatUsd', () => {
  it('divides minor units by 100', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(1999)).toBe('$19.99');
    expect(formatUsd(100000)).toBe('$1000');
  });
});
