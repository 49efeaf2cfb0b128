import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import type { Subscription } from '@margins/common/schemas/payments';
import { anonymousConfig } from '../../page-config.ts';
import { renderWithApp } from '../../test/render.tsx';
import { CANCEL_CONFIRMATION, SubscriptionPanel } from './subscription-panel.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function subscriptionWith(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_local_1',
    status: 'active',
    cancel_at_period_end: false,
    items: {
      data: [
        {
          current_period_end: '2027-11-24T12:00:00.000Z',
          quantity: 1,
          price: { unit_amount: 7200, currency: 'usd', interval: 'year' },
        },
      ],
    },
    product: { product_name: 'Writer' },
    renewable: true,
    ...overrides,
  };
}

const config = { ...anonymousConfig('current-profile'), productsEnabled: true };

describe('SubscriptionPanel', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('says "Complementary subscription" when none is active, listing active ones only', async () => {
    fetchMock.mockResolvedValueOnce(
      json({
        subscriptions: [subscriptionWith({ status: 'canceled' })],
        product: { product_name: 'Free' },
      }),
    );
    renderWithApp(<SubscriptionPanel />, { config });
    expect(await screen.findByText('Complementary subscription')).toBeTruthy();
    expect(screen.queryByText('Writer')).toBeNull();
  });

  it('cancels after the confirmation, then keeps; each answer replaces the entry', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json({ subscriptions: [subscriptionWith()], product: { product_name: 'Writer' } }),
      )
      .mockResolvedValueOnce(
        json({ subscription: subscriptionWith({ cancel_at_period_end: true }) }),
      )
      .mockResolvedValueOnce(json({ subscription: subscriptionWith() }));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<SubscriptionPanel />, { config });

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Renewal' }));
    expect(confirm).toHaveBeenCalledWith(CANCEL_CONFIRMATION);
    expect(await screen.findByText(/^Cancels on /)).toBeTruthy();
    expect(await screen.findByText(MESSAGES.subscriptionCanceled)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(url).toBe('/profile/account/subscription/renewal/cancel');
    expect(JSON.parse(String(init.body))).toEqual({ subscriptionId: 'sub_local_1' });

    fireEvent.click(screen.getByRole('button', { name: 'Keep Subscription' }));
    expect(await screen.findByText(MESSAGES.subscriptionRenew)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Cancel Renewal' })).toBeTruthy();
  });

  it('does nothing when the confirmation is declined', async () => {
    fetchMock.mockResolvedValueOnce(
      json({ subscriptions: [subscriptionWith()], product: { product_name: 'Writer' } }),
    );
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderWithApp(<SubscriptionPanel />, { config });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Renewal' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('flashes SPEC §8 messages when loading or changing fails', async () => {
    fetchMock.mockResolvedValueOnce(json({ error: 'down' }, 500));
    const { unmount } = renderWithApp(<SubscriptionPanel />, { config });
    expect(await screen.findByText(MESSAGES.unableToRetrieveSubscriptions)).toBeTruthy();
    unmount();

    fetchMock
      .mockResolvedValueOnce(
        json({ subscriptions: [subscriptionWith()], product: { product_name: 'Writer' } }),
      )
      .mockResolvedValueOnce(json({ error: MESSAGES.cantLocateSubscription }, 404));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<SubscriptionPanel />, { config });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Renewal' }));
    await waitFor(() =>
      expect(screen.getAllByText(MESSAGES.cantLocateSubscription).length).toBeGreaterThan(0),
    );
    expect(screen.getByRole('button', { name: 'Cancel Renewal' })).toBeTruthy();
  });
});
