import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { schema } from '../../db/index.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { usePaymentsProvider } from './providers.ts';
import { createStripeClient, StripeProvider } from './stripe-provider.ts';
import { StripeStub } from './stripe-stub.ts';
import { planOffer, seedDemoProducts } from './test-helpers.ts';

const WEBHOOK_SECRET = 'whsec_test_secret_for_margins';
let test: TestApp;
const stub = new StripeStub();
let stripeProvider: StripeProvider;

beforeAll(async () => {
  test = await createTestApp({
    stripeSecretKey: 'sk_test_margins',
    stripeWebhookSecret: WEBHOOK_SECRET,
  });
  await seedDemoProducts(test.ctx);
  const endpoint = await stub.start();
  stripeProvider = new StripeProvider(createStripeClient('sk_test_margins', { ...endpoint }));
  usePaymentsProvider(test.ctx, stripeProvider);
});
afterAll(async () => {
  await test.close();
  await stub.stop();
});

let eventCounter = 0;
function stripeEvent(type: string, objectId: string, id = `evt_test_${++eventCounter}`) {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: objectId } },
  });
}

function postWebhook(payload: string, signature: string | null) {
  return test.app.inject({
    method: 'POST',
    url: '/payments/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

async function subscriptionRow(providerId: string) {
  const [row] = await test.ctx.db
    .select()
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.providerSubscriptionId, providerId));
  return row ?? null;
}

/** A subscription checkout created through the SDK and paid on the stub. */
async function paidSession() {
  const { client, user } = await loggedInClient(test);
  const response = await client.post('/payments/checkout-session', {
    priceId: 'writer_year',
    ...planOffer(test.ctx),
  });
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = response.json().sessionUrl.split('/').pop() as string;
  const session = stub.completeSession(sessionId);
  return { client, user, sessionId, subscriptionId: session.subscription as string };
}

describe('Stripe checkout through the SDK', () => {
  it('syncs the catalogue to Stripe and opens a subscription session with its price', async () => {
    const { client, user } = await loggedInClient(test);
    const response = await client.post('/payments/checkout-session', {
      priceId: 'writer_year',
      ...planOffer(test.ctx),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().sessionUrl).toMatch(
      /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/,
    );
    const [price] = await test.ctx.db
      .select()
      .from(schema.prices)
      .where(eq(schema.prices.lookupKey, 'writer_year'));
    expect(price!.stripePriceId).toMatch(/^price_test_/);
    const created = stub.requests.filter((request) => request.path === '/v1/checkout/sessions');
    const form = created.at(-1)!.form;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price]')).toBe(price!.stripePriceId);
    expect(form.get('metadata[userId]')).toBe(String(user.id));
    expect(form.get('subscription_data[metadata][userId]')).toBe(String(user.id));
    expect(form.get('success_url')).toMatch(/\/payments\/complete\/\{CHECKOUT_SESSION_ID\}$/);
  });

  it('answers "Unable to load payment" when Stripe fails', async () => {
    const { client } = await loggedInClient(test);
    stub.failSessionsWith = 400;
    try {
      const response = await client.post('/payments/checkout-session', {
        priceId: 'writer_month',
        ...planOffer(test.ctx),
      });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toBe(MESSAGES.unableToLoadPayment);
    } finally {
      stub.failSessionsWith = null;
    }
  });
});

describe('POST /payments/webhook', () => {
  it('a signed event re-reads the session and stores the subscription; a replay is a no-op', async () => {
    const { user, sessionId, subscriptionId } = await paidSession();
    const payload = stripeEvent('checkout.session.completed', sessionId);
    const first = await postWebhook(payload, sign(payload));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().outcome).toBe('synced');
    const row = await subscriptionRow(subscriptionId);
    expect(row).toMatchObject({ userId: user.id, status: 'active', provider: 'stripe' });

    // Stripe changes the subscription; replaying the old event does not re-read it.
    stub.subscriptions.get(subscriptionId)!.status = 'past_due';
    const replay = await postWebhook(payload, sign(payload));
    expect(replay.json().outcome).toBe('duplicate');
    expect((await subscriptionRow(subscriptionId))!.status).toBe('active');
  });

  it('a forged or missing signature is a 400 and changes nothing', async () => {
    const { sessionId, subscriptionId } = await paidSession();
    const payload = stripeEvent('checkout.session.completed', sessionId, 'evt_forged');
    const forged = await postWebhook(payload, sign(payload, 'whsec_not_ours'));
    expect(forged.statusCode).toBe(400);
    const missing = await postWebhook(payload, null);
    expect(missing.statusCode).toBe(400);
    const tampered = await postWebhook(payload.replace('evt_forged', 'evt_other'), sign(payload));
    expect(tampered.statusCode).toBe(400);
    expect(await subscriptionRow(subscriptionId)).toBeNull();
    const events = await test.ctx.db
      .select()
      .from(schema.paymentEvents)
      .where(eq(schema.paymentEvents.id, 'evt_forged'));
    expect(events).toEqual([]);
  });

  it('events out of order and duplicates leave the latest state', async () => {
    const { sessionId, subscriptionId } = await paidSession();
    const created = stripeEvent('customer.subscription.created', subscriptionId);
    const completed = stripeEvent('checkout.session.completed', sessionId);
    // By the time the events arrive the subscriber has already cancelled the renewal.
    stub.subscriptions.get(subscriptionId)!.cancel_at_period_end = true;
    const updated = stripeEvent('customer.subscription.updated', subscriptionId);
    for (const payload of [updated, completed, created, updated, created]) {
      const response = await postWebhook(payload, sign(payload));
      expect(response.statusCode).toBe(200);
    }
    const row = await subscriptionRow(subscriptionId);
    expect(row!.cancelAtPeriodEnd).toBe(true);
    const rows = await test.ctx.db
      .select()
      .from(schema.subscriptions)
      .where(eq(schema.subscriptions.providerSubscriptionId, subscriptionId));
    expect(rows).toHaveLength(1);
  });

  it('the same event delivered twice at once is handled once', async () => {
    const { sessionId, subscriptionId } = await paidSession();
    const payload = stripeEvent('checkout.session.completed', sessionId);
    const answers = await Promise.all([
      postWebhook(payload, sign(payload)),
      postWebhook(payload, sign(payload)),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.json().outcome).sort()).toEqual(['duplicate', 'synced']);
    expect(await subscriptionRow(subscriptionId)).not.toBeNull();
  });

  it('a paid tip session becomes one tip of the author it was for', async () => {
    const author = await buildUser(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, author, { visibility: 'public' });
    const { client, user } = await loggedInClient(test);
    const offer = (await client.get(`/payments/tip-offer?manuscript_id=${manuscript.id}`)).json();
    const response = await client.post('/payments/checkout-session', {
      tipAmount: '12',
      ...offer.offer,
    });
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = response.json().sessionUrl.split('/').pop() as string;
    const form = stub.requests
      .filter((request) => request.path === '/v1/checkout/sessions')
      .at(-1)!.form;
    expect(form.get('mode')).toBe('payment');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('1200');
    stub.completeSession(sessionId);
    const payload = stripeEvent('checkout.session.completed', sessionId);
    expect((await postWebhook(payload, sign(payload))).json().outcome).toBe('synced');
    const tips = await test.ctx.db
      .select()
      .from(schema.tips)
      .where(eq(schema.tips.providerSessionId, sessionId));
    expect(tips).toMatchObject([
      { authorId: author.id, payerId: user.id, manuscriptId: manuscript.id, amount: 1200 },
    ]);
  });

  it('answers 503 (Stripe retries) and stores nothing when Stripe cannot be read', async () => {
    const payload = stripeEvent('customer.subscription.updated', 'sub_missing', 'evt_retry');
    const failing = new StripeProvider(
      createStripeClient('sk_test_margins', { host: '127.0.0.1', port: 9, protocol: 'http' }),
    );
    usePaymentsProvider(test.ctx, failing);
    try {
      const response = await postWebhook(payload, sign(payload));
      expect(response.statusCode).toBe(503);
    } finally {
      usePaymentsProvider(test.ctx, stripeProvider);
    }
    const events = await test.ctx.db
      .select()
      .from(schema.paymentEvents)
      .where(eq(schema.paymentEvents.id, 'evt_retry'));
    expect(events).toEqual([]);
  });

  it('an unknown event type is ignored and not stored', async () => {
    const payload = stripeEvent('invoice.finalized', 'in_test_1', 'evt_unknown_type');
    const response = await postWebhook(payload, sign(payload));
    expect(response.statusCode).toBe(200);
    expect(response.json().outcome).toBe('ignored');
    const events = await test.ctx.db
      .select()
      .from(schema.paymentEvents)
      .where(eq(schema.paymentEvents.id, 'evt_unknown_type'));
    expect(events).toEqual([]);
  });
});

/** `{"a":{"a":…1…}}`, `depth` objects deep. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** An event as Stripe sends one, with `fields` replaced (a field set to undefined is left out). */
function eventWith(fields: Record<string, unknown>): string {
  const event: Record<string, unknown> = {
    id: `evt_shape_${++eventCounter}`,
    object: 'event',
    type: 'customer.subscription.updated',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: 'sub_shape' } },
    ...fields,
  };
  return JSON.stringify(event);
}

/** Every row a webhook may write, counted. */
async function paymentRowCounts() {
  const { db } = test.ctx;
  const count = async (table: typeof schema.paymentEvents | typeof schema.subscriptions) =>
    (await db.select().from(table)).length;
  return {
    events: await count(schema.paymentEvents),
    subscriptions: await count(schema.subscriptions),
    tips: (await db.select().from(schema.tips)).length,
    gifts: (await db.select().from(schema.gifts)).length,
  };
}

describe('POST /payments/webhook: signed bodies of a shape we do not handle', () => {
  // Not an event: nothing to store or retry (400).
  const notEvents: Record<string, string> = {
    'an empty object': '{}',
    null: 'null',
    'an array': '[]',
    'a string': '"evt_1"',
    'a number': '42',
    'not JSON': '{"id": "evt_',
    'nested 5,000 deep': nested(5_000),
    'nested 10,000 deep': nested(10_000),
    'an event without an id': eventWith({ id: undefined }),
    'an event whose id is a number': eventWith({ id: 7 }),
    'an event with a NUL in its id': eventWith({ id: 'evt_\u0000x' }),
    'an event with an empty id': eventWith({ id: '' }),
    'an event with a 10,000-character id': eventWith({ id: `evt_${'x'.repeat(10_000)}` }),
    'an event without a type': eventWith({ type: undefined }),
    'an event whose type is an object': eventWith({ type: { name: 'x' } }),
  };
  // An event, but not one we act on: acknowledged (Stripe stops retrying), nothing written.
  const unhandled: Record<string, string> = {
    'an event without data': eventWith({ data: undefined }),
    'an event whose data is null': eventWith({ data: null }),
    'an event whose data.object is null': eventWith({ data: { object: null } }),
    'an event whose data.object is an array': eventWith({ data: { object: [] } }),
    'an event whose object has no id': eventWith({ data: { object: { status: 'active' } } }),
    'an event whose object id is a number': eventWith({ data: { object: { id: 12 } } }),
    "an event whose object's id has a NUL": eventWith({ data: { object: { id: 'sub_\u0000' } } }),
    'an event of a type we do not handle': eventWith({ type: 'v3.something.new' }),
    'an event with a NUL in its type': eventWith({ type: 'customer.\u0000' }),
    'an event nested 10,000 deep inside its object': eventWith({
      data: { object: { metadata: 'DEEP' } },
    }).replace('"DEEP"', nested(10_000)),
  };

  for (const [name, payload] of Object.entries(notEvents)) {
    it(`${name}: 400, nothing written`, async () => {
      const before = await paymentRowCounts();
      const response = await postWebhook(payload, sign(payload));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe(PAYMENT_MESSAGES.webhookNotAnEvent);
      expect(await paymentRowCounts()).toEqual(before);
    });
  }
  for (const [name, payload] of Object.entries(unhandled)) {
    it(`${name}: 200 ignored, nothing written`, async () => {
      const before = await paymentRowCounts();
      const requests = stub.requests.length;
      const response = await postWebhook(payload, sign(payload));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
      expect(await paymentRowCounts()).toEqual(before);
      // Nothing asked of Stripe either.
      expect(stub.requests.length).toBe(requests);
    });
  }
});

describe('renewal with Stripe', () => {
  it('cancel and renew update Stripe and answer the re-read subscription', async () => {
    const { client, sessionId, subscriptionId } = await paidSession();
    const payload = stripeEvent('checkout.session.completed', sessionId);
    await postWebhook(payload, sign(payload));
    const cancel = await client.post('/profile/account/subscription/renewal/cancel', {
      subscriptionId,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().subscription.cancel_at_period_end).toBe(true);
    expect(stub.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    const renew = await client.post('/profile/account/subscription/renewal/renew', {
      subscriptionId,
    });
    expect(renew.json().subscription.cancel_at_period_end).toBe(false);
    expect(stub.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
  });
});
