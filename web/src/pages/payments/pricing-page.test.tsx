import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import type { Product } from '@margins/common/schemas/payments';
import { anonymousConfig } from '../../page-config.ts';
import { renderWithApp } from '../../test/render.tsx';
import { PricingPage } from './pricing-page.tsx';

const product = (id: number, name: string, month?: number, year?: number): Product => ({
  id,
  name,
  description: `${name} plan`,
  default_price: null,
  prices: {
    ...(month !== undefined
      ? { month: { id: `${name}_month`, amount: month, currency: 'usd' } }
      : {}),
    ...(year !== undefined ? { year: { id: `${name}_year`, amount: year, currency: 'usd' } } : {}),
  },
  marketing_features: [{ name: `${name} feature` }],
  word_limit: 1,
});

const products = {
  '3': product(3, 'Studio', 2000, 18000),
  '1': product(1, 'Free'),
  '2': product(2, 'Writer', 800, 7200),
};
const checkout = { tipFor: '', tipType: 'manuscript', nextUrl: '/profile/#subscription', sig: 's' };

function configWith(data: Record<string, unknown>, productsEnabled = true) {
  return {
    ...anonymousConfig('products', data),
    loginState: 'logged_in' as const,
    productsEnabled,
  };
}

describe('PricingPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows three columns sorted by yearly amount, yearly first, with FREE / FOREVER', () => {
    renderWithApp(<PricingPage />, { config: configWith({ products, checkout }) });
    const grid = screen.getByTestId('pricing-grid');
    expect(grid.className).toContain('md:grid-cols-3');
    const names = within(grid)
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(['Free', 'Writer', 'Studio']);
    expect(screen.getByRole('button', { name: 'Yearly' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(grid.textContent).toContain('FREEFOREVER');
    expect(grid.textContent).toContain('save $24 per year!');

    fireEvent.click(screen.getByRole('button', { name: 'Monthly' }));
    expect(grid.textContent).toContain('$8/ month');
    expect(grid.textContent).not.toContain('per year!');
  });

  it('starts checkout with the price id and the signed offer; flashes on failure', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ error: 'down' }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderWithApp(<PricingPage />, { config: configWith({ products, checkout }) });
    fireEvent.click(screen.getByRole('button', { name: 'Choose Writer' }));
    expect(await screen.findByText(MESSAGES.unableToLoadPayment)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/payments/checkout-session');
    expect(JSON.parse(String(init.body))).toEqual({
      priceId: 'Writer_year',
      tipFor: '',
      sig: 's',
      nextUrl: '/profile/#subscription',
      loginState: 'logged_in',
    });
  });

  it('flashes "Unable to retrieve products" when they cannot be fetched', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
    renderWithApp(<PricingPage />, { config: configWith({ checkout }) });
    expect(await screen.findByText(MESSAGES.unableToRetrieveProducts)).toBeTruthy();
  });

  it('without productsEnabled shows only the waiting list', () => {
    renderWithApp(<PricingPage />, { config: configWith({ products, checkout }, false) });
    expect(screen.queryByTestId('pricing-grid')).toBeNull();
    expect(screen.queryByRole('button', { name: /Choose/ })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Join the waiting list' })).toBeTruthy();
  });
});
