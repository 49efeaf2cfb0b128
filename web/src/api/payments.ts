import { MESSAGES } from '@margins/common';
import type {
  CheckoutSessionBody,
  ProductsResponse,
  ReceivedTipsResponse,
  Subscription,
  SubscriptionsResponse,
  TipOfferResponse,
} from '@margins/common/schemas/payments';
import { loadPage } from '../lib/navigation.ts';
import { api, ApiError } from './client.ts';

export const fetchProducts = () => api.get<ProductsResponse>('/payments/products');
export const fetchSubscriptions = () =>
  api.get<SubscriptionsResponse>('/profile/account/subscriptions');
export const changeRenewal = (status: 'renew' | 'cancel', subscriptionId: string) =>
  api.post<{ subscription: Subscription }>(`/profile/account/subscription/renewal/${status}`, {
    subscriptionId,
  });
export const fetchTipOffer = (manuscriptId: number) =>
  api.get<TipOfferResponse>(`/payments/tip-offer?manuscript_id=${manuscriptId}`);
export const fetchReceivedTips = () => api.get<ReceivedTipsResponse>('/payments/tips/received');

/**
 * Creates a checkout session and sends the browser to it (SPEC §7). On failure it flashes
 * "Unable to load payment" (and the server's reason, when it gives one a person can act on).
 */
export async function startCheckout(
  body: CheckoutSessionBody,
  flash: (message: string) => void,
): Promise<ApiError | null> {
  try {
    const { sessionUrl } = await api.post<{ sessionUrl: string }>(
      '/payments/checkout-session',
      body,
    );
    loadPage(sessionUrl);
    return null;
  } catch (error) {
    flash(MESSAGES.unableToLoadPayment);
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      if (error.status === 400 && Object.keys(error.errors).length > 0) return error;
      flash(error.error);
    }
    return error instanceof ApiError ? error : null;
  }
}
