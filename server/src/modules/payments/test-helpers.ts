import { expect } from 'vitest';
import { TEST_CARDS } from '@margins/common/payments-constants';
import type { AppContext } from '../../context.ts';
import type { TestClient } from '../../test/harness.ts';
import { seedDemoProducts } from '../../seed/products.ts';
import { checkoutOffer, SUBSCRIBED_NEXT_URL } from './offers.ts';

export { seedDemoProducts };

/** The signed subscription offer the pricing page carries. */
export const planOffer = (ctx: AppContext) =>
  checkoutOffer(ctx, { tipType: 'manuscript', tipFor: '', nextUrl: SUBSCRIBED_NEXT_URL });

/** A valid card form for the local provider. */
export const card = (number: string = TEST_CARDS.succeeds) => ({
  cardNumber: number,
  expiry: '12/40',
  cvc: '123',
  name: 'Test Payer',
});

/** Starts a subscription checkout for a price and answers the local session id. */
export async function startPlanCheckout(
  client: TestClient,
  ctx: AppContext,
  priceId = 'writer_year',
): Promise<string> {
  const response = await client.post('/payments/checkout-session', {
    priceId,
    ...planOffer(ctx),
    loginState: 'logged_in',
  });
  expect(response.statusCode, response.body).toBe(200);
  const { sessionUrl } = response.json<{ sessionUrl: string }>();
  expect(sessionUrl).toMatch(/^\/payments\/local\/checkout\/cs_local_/);
  return sessionUrl.split('/').pop()!;
}

/** Starts a subscription checkout and pays it with 4242…; answers the subscription id. */
export async function subscribe(client: TestClient, ctx: AppContext, priceId = 'writer_year') {
  const sessionId = await startPlanCheckout(client, ctx, priceId);
  const paid = await client.post(`/payments/local/checkout/${sessionId}/pay`, card());
  expect(paid.statusCode, paid.body).toBe(200);
  const listed = await client.get('/profile/account/subscriptions');
  const [subscription] = listed.json<{ subscriptions: { id: string }[] }>().subscriptions;
  return subscription!.id;
}
