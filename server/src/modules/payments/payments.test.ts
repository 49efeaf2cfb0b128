import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { TEST_CARDS } from '@margins/common/payments-constants';
import type { ProductsResponse, SubscriptionsResponse } from '@margins/common/schemas/payments';
import { schema } from '../../db/index.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { wordLimitFor } from '../manuscripts/word-limit.ts';
import { card, planOffer, seedDemoProducts, startPlanCheckout, subscribe } from './test-helpers.ts';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
  await seedDemoProducts(test.ctx);
});
afterAll(async () => test.close());

describe('products and the pricing page', () => {
  it('answers the seeded tiers as SPEC §3 products keyed by id', async () => {
    const response = await new TestClient(test.app).get('/payments/products');
    expect(response.statusCode).toBe(200);
    const products = Object.values(response.json<ProductsResponse>().products);
    expect(products.map((product) => product.name)).toEqual(['Free', 'Writer', 'Studio']);
    const writer = products.find((product) => product.name === 'Writer')!;
    expect(writer.prices).toEqual({
      month: { id: 'writer_month', amount: 800, currency: 'usd' },
      year: { id: 'writer_year', amount: 7200, currency: 'usd' },
    });
    expect(writer.default_price).toBe('writer_year');
    expect(writer.marketing_features[0]).toEqual({ name: expect.stringContaining('words') });
    expect(products[0]!.prices).toEqual({});
  });

  it('renders /products/ with the products and a signed offer in the page data', async () => {
    const response = await new TestClient(test.app).get('/products/', {
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('"page":"products"');
    expect(response.body).toContain('writer_year');
    expect(response.body).toContain('"sig":"');
    expect(response.body).toContain('"subscribed":false');
  });
});

describe('waiting list (POST /products/)', () => {
  it('validates, de-duplicates and mails a confirmation once', async () => {
    const client = new TestClient(test.app, '10.0.0.9');
    const bad = await client.post('/products/', { email: 'not-an-address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBeDefined();

    const first = await client.post('/products/', { email: 'Hopeful@Example.test' });
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(PAYMENT_MESSAGES.waitingListJoined);
    const again = await client.post('/products/', { email: 'hopeful@example.test' });
    expect(again.json().message).toBe(PAYMENT_MESSAGES.waitingListAlready);

    const rows = await test.ctx.db.select().from(schema.waitingList);
    expect(rows.filter((row) => row.email === 'hopeful@example.test')).toHaveLength(1);
    const mails = await test.ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.to, 'hopeful@example.test'));
    expect(mails).toHaveLength(1);
  });
});

describe('subscribing with the local provider', () => {
  it('pays the yearly tier with 4242…, lists it, cancels and keeps the renewal', async () => {
    const { client, user } = await loggedInClient(test);
    const before = await client.get('/profile/account/subscriptions');
    expect(before.json<SubscriptionsResponse>()).toEqual({
      subscriptions: [],
      product: { product_name: 'Free' },
    });

    const sessionId = await startPlanCheckout(client, test.ctx);
    const page = await client.get(`/payments/local/checkout/${sessionId}`, {
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"page":"local-checkout"');

    const paid = await client.post(`/payments/local/checkout/${sessionId}/pay`, card());
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().redirectUrl).toMatch(new RegExp(`/payments/complete/${sessionId}$`));
    const back = await client.get(new URL(paid.json().redirectUrl).pathname, {
      headers: { accept: 'text/html' },
    });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/profile/#subscription');

    const listed = (
      await client.get('/profile/account/subscriptions')
    ).json<SubscriptionsResponse>();
    expect(listed.product).toEqual({ product_name: 'Writer' });
    const pricing = await client.get('/products/', { headers: { accept: 'text/html' } });
    expect(pricing.body).toContain('"subscribed":true');
    const [subscription] = listed.subscriptions;
    expect(subscription).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      product: { product_name: 'Writer' },
      items: { data: [{ quantity: 1, price: { unit_amount: 7200, currency: 'usd' } }] },
    });
    const end = new Date(subscription!.items.data[0]!.current_period_end);
    expect(end.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect(await wordLimitFor(test.ctx, user)).toBe(1_000_000);

    const cancel = await client.post('/profile/account/subscription/renewal/cancel', {
      subscriptionId: subscription!.id,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().subscription.cancel_at_period_end).toBe(true);
    const renew = await client.post('/profile/account/subscription/renewal/renew', {
      subscriptionId: subscription!.id,
    });
    expect(renew.json().subscription.cancel_at_period_end).toBe(false);

    // A second plan while one is active is refused.
    const second = await client.post('/payments/checkout-session', {
      priceId: 'studio_month',
      ...planOffer(test.ctx),
    });
    expect(second.statusCode).toBe(409);
  });

  it('a declined card shows its message and changes nothing', async () => {
    const { client, user } = await loggedInClient(test);
    const sessionId = await startPlanCheckout(client, test.ctx);
    const declined = await client.post(
      `/payments/local/checkout/${sessionId}/pay`,
      card(TEST_CARDS.declined),
    );
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toBe(PAYMENT_MESSAGES.cardDeclined);
    const rows = await test.ctx.db
      .select()
      .from(schema.subscriptions)
      .where(eq(schema.subscriptions.userId, user.id));
    expect(rows).toEqual([]);
    // The session is still open: another card can pay it.
    const retry = await client.post(`/payments/local/checkout/${sessionId}/pay`, card());
    expect(retry.statusCode).toBe(200);
    const replay = await client.post(`/payments/local/checkout/${sessionId}/pay`, card());
    expect(replay.statusCode).toBe(410);
  });

  it('a card that asks for confirmation pays only once confirmed', async () => {
    const { client } = await loggedInClient(test);
    const sessionId = await startPlanCheckout(client, test.ctx, 'studio_month');
    const asked = await client.post(
      `/payments/local/checkout/${sessionId}/pay`,
      card(TEST_CARDS.needsConfirmation),
    );
    expect(asked.json()).toEqual({ status: 'requires_confirmation' });
    const confirmed = await client.post(`/payments/local/checkout/${sessionId}/pay`, {
      ...card(TEST_CARDS.needsConfirmation),
      confirmed: true,
    });
    expect(confirmed.json().status).toBe('complete');
  });

  it('refuses a bad card number, a past expiry and a short CVC with field errors', async () => {
    const { client } = await loggedInClient(test);
    const sessionId = await startPlanCheckout(client, test.ctx);
    const url = `/payments/local/checkout/${sessionId}/pay`;
    const wrongNumber = await client.post(url, card('4242424242424241'));
    expect(wrongNumber.json().errors.cardNumber).toEqual([PAYMENT_MESSAGES.cardNumberInvalid]);
    const expired = await client.post(url, { ...card(), expiry: '01/20' });
    expect(expired.json().errors.expiry).toBeDefined();
    const shortCvc = await client.post(url, { ...card(), cvc: '1' });
    expect(shortCvc.json().errors.cvc).toBeDefined();
  });

  it("refuses another user's subscription id, as if it did not exist", async () => {
    const owner = await loggedInClient(test);
    const subscriptionId = await subscribe(owner.client, test.ctx, 'writer_month');
    const { client: intruder } = await loggedInClient(test);
    for (const status of ['cancel', 'renew']) {
      const response = await intruder.post(`/profile/account/subscription/renewal/${status}`, {
        subscriptionId,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(MESSAGES.cantLocateSubscription);
    }
    const [row] = await test.ctx.db
      .select()
      .from(schema.subscriptions)
      .where(eq(schema.subscriptions.providerSubscriptionId, subscriptionId));
    expect(row!.cancelAtPeriodEnd).toBe(false);
    const anonymous = await new TestClient(test.app).get('/profile/account/subscriptions');
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('checkout-session guards', () => {
  it('refuses a nextUrl on another origin, even signed', async () => {
    const { client } = await loggedInClient(test);
    for (const nextUrl of [
      'https://evil.example/steal',
      '//evil.example/x',
      'javascript:alert(1)',
    ]) {
      const response = await client.post('/payments/checkout-session', {
        priceId: 'writer_year',
        tipFor: '',
        nextUrl,
        sig: planOffer(test.ctx).sig,
      });
      expect(response.statusCode, nextUrl).toBe(400);
      expect(response.json().errors.nextUrl).toEqual([PAYMENT_MESSAGES.foreignNextUrl]);
    }
  });

  it('refuses an offer whose signature does not match its tipFor or nextUrl', async () => {
    const { client } = await loggedInClient(test);
    const offer = planOffer(test.ctx);
    const response = await client.post('/payments/checkout-session', {
      priceId: 'writer_year',
      ...offer,
      nextUrl: '/dashboard',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.sig).toBeDefined();
  });

  it('refuses an unknown price and asks anonymous buyers to log in', async () => {
    const { client } = await loggedInClient(test);
    const unknown = await client.post('/payments/checkout-session', {
      priceId: 'nope_year',
      ...planOffer(test.ctx),
    });
    expect(unknown.statusCode).toBe(400);
    const anonymous = await new TestClient(test.app).post('/payments/checkout-session', {
      priceId: 'writer_year',
      ...planOffer(test.ctx),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('productsEnabled off', () => {
  it('hides products, checkout, tips and the local checkout (404) and says so in the page', async () => {
    const off = await createTestApp({ productsEnabled: false });
    try {
      const client = new TestClient(off.app);
      expect((await client.get('/payments/products')).statusCode).toBe(404);
      const checkout = await client.post('/payments/checkout-session', { tipAmount: '5' });
      expect(checkout.statusCode).toBe(404);
      expect((await client.get('/payments/tip-offer?manuscript_id=1')).statusCode).toBe(404);
      expect((await client.get('/payments/local/checkout/cs_local_x')).statusCode).toBe(404);
      const page = await client.get('/products/', { headers: { accept: 'text/html' } });
      expect(page.body).toContain('"productsEnabled":false');
    } finally {
      await off.close();
    }
  });
});

describe('coupons (local provider)', () => {
  it('takes a percentage off, refuses unknown, expired and used-up codes', async () => {
    await test.ctx.db.insert(schema.coupons).values([
      { code: 'HALF', percentOff: 50, maxRedemptions: 1 },
      { code: 'OLD', amountOff: 100, expiresAt: new Date(Date.now() - 1000) },
    ]);
    const { client } = await loggedInClient(test);
    const sessionId = await startPlanCheckout(client, test.ctx);
    const url = `/payments/local/checkout/${sessionId}/pay`;
    const unknown = await client.post(url, { ...card(), couponCode: 'NOPE' });
    expect(unknown.json().errors.couponCode).toEqual([PAYMENT_MESSAGES.couponInvalid]);
    const expired = await client.post(url, { ...card(), couponCode: 'old' });
    expect(expired.json().errors.couponCode).toEqual([PAYMENT_MESSAGES.couponExpired]);
    const half = await client.post(url, { ...card(), couponCode: 'half' });
    expect(half.statusCode, half.body).toBe(200);
    const listed = (
      await client.get('/profile/account/subscriptions')
    ).json<SubscriptionsResponse>();
    expect(listed.subscriptions[0]!.items.data[0]!.price.unit_amount).toBe(3600);

    const { client: other } = await loggedInClient(test);
    const otherSession = await startPlanCheckout(other, test.ctx);
    const usedUp = await other.post(`/payments/local/checkout/${otherSession}/pay`, {
      ...card(),
      couponCode: 'HALF',
    });
    expect(usedUp.json().errors.couponCode).toEqual([PAYMENT_MESSAGES.couponUsedUp]);
  });
});

describe('gifts', () => {
  it('buys a plan for an e-mail, mails the code, and the recipient redeems it once', async () => {
    const { client: giver } = await loggedInClient(test);
    const start = await giver.post('/payments/checkout-session', {
      priceId: 'studio_year',
      giftEmail: 'lucky@example.test',
      ...planOffer(test.ctx),
    });
    expect(start.statusCode, start.body).toBe(200);
    const sessionId = start.json().sessionUrl.split('/').pop();
    const paid = await giver.post(`/payments/local/checkout/${sessionId}/pay`, card());
    expect(paid.statusCode).toBe(200);
    // The thanks page names the gift's recipient; a session not synced (yet) is "confirming".
    const thanks = await giver.get(`/payments/thanks/${sessionId}`, {
      headers: { accept: 'text/html' },
    });
    expect(thanks.body).toContain('"kind":"gift"');
    expect(thanks.body).toContain('"giftEmail":"lucky@example.test"');
    const unknown = await giver.get('/payments/thanks/cs_local_unknown', {
      headers: { accept: 'text/html' },
    });
    expect(unknown.body).toContain('"kind":"pending"');
    const [gift] = await test.ctx.db
      .select()
      .from(schema.gifts)
      .where(eq(schema.gifts.recipientEmail, 'lucky@example.test'));
    expect(gift).toMatchObject({ amount: 18000, interval: 'year', redeemedAt: null });
    const [mail] = await test.ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.to, 'lucky@example.test'));
    expect(mail!.text).toContain(gift!.code);

    const recipient = await buildUser(test.ctx.db, { email: 'lucky@example.test' });
    const { client } = await loggedInClient(test, recipient);
    const redeemed = await client.post('/payments/gifts/redeem', {
      code: gift!.code.toLowerCase(),
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(redeemed.json().subscription).toMatchObject({
      product: { product_name: 'Studio' },
      cancel_at_period_end: true,
      renewable: false,
    });
    expect(await wordLimitFor(test.ctx, recipient)).toBe(5_000_000);
    const { client: someoneElse } = await loggedInClient(test);
    const twice = await someoneElse.post('/payments/gifts/redeem', { code: gift!.code });
    expect(twice.statusCode).toBe(400);
  });
});
