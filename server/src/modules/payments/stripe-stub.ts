import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type StripeObject = Record<string, unknown> & { id: string };

/**
 * A small stand-in for Stripe's API over HTTP, for tests: the real SDK talks to it through its
 * host/port/protocol options. It keeps checkout sessions, subscriptions, products and prices
 * in memory; tests move their state (a paid session, a cancelled renewal) as Stripe would.
 */
export class StripeStub {
  readonly sessions = new Map<string, StripeObject>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly products = new Map<string, StripeObject>();
  readonly prices = new Map<string, StripeObject>();
  /** Every request: method, path and form fields, for assertions. */
  readonly requests: { method: string; path: string; form: URLSearchParams }[] = [];
  /** Set to make every POST /v1/checkout/sessions fail with this status. */
  failSessionsWith: number | null = null;
  private server: Server | null = null;
  private counter = 0;

  async start(): Promise<{ host: string; port: number; protocol: 'http' }> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return { host: '127.0.0.1', port, protocol: 'http' };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Marks a session paid, with a new active subscription for a subscription session. */
  completeSession(id: string, priceId?: string, periodEnd = Date.now() / 1000 + 365 * 86400) {
    const session = this.sessions.get(id)!;
    session.status = 'complete';
    session.payment_status = 'paid';
    if (session.mode === 'subscription') {
      const subscription = this.subscription({
        price: priceId ?? String(session.price),
        metadata: session.metadata as Record<string, string>,
        periodEnd,
      });
      session.subscription = subscription.id;
    }
    return session;
  }

  /** A subscription in Stripe's shape (API 2025+: the period lives on its items). */
  subscription(options: {
    price: string;
    metadata: Record<string, string>;
    periodEnd: number;
    status?: string;
  }): StripeObject {
    const id = `sub_test_${++this.counter}`;
    const subscription: StripeObject = {
      id,
      object: 'subscription',
      customer: 'cus_test_1',
      status: options.status ?? 'active',
      cancel_at_period_end: false,
      metadata: options.metadata,
      items: {
        object: 'list',
        data: [
          {
            id: `si_test_${this.counter}`,
            object: 'subscription_item',
            quantity: 1,
            current_period_end: Math.floor(options.periodEnd),
            price: {
              id: options.price,
              object: 'price',
              unit_amount: 7200,
              currency: 'usd',
              recurring: { interval: 'year' },
            },
          },
        ],
      },
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://stub');
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, form });
    const metadata = (prefix: string) =>
      Object.fromEntries(
        [...form]
          .filter(([key]) => key.startsWith(`${prefix}[`))
          .map(([key, value]) => [key.slice(prefix.length + 1, -1), value]),
      );
    const missing = {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: 'No such object' } },
    };

    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[1] === 'checkout' && parts[2] === 'sessions') {
      if (method === 'POST' && !parts[3]) {
        if (this.failSessionsWith) {
          return {
            status: this.failSessionsWith,
            body: { error: { type: 'api_error', message: 'down' } },
          };
        }
        const id = `cs_test_${++this.counter}`;
        const session: StripeObject = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: form.get('mode'),
          status: 'open',
          payment_status: 'unpaid',
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]') ?? 7200),
          currency: 'usd',
          customer: null,
          subscription: null,
          metadata: metadata('metadata'),
          price: form.get('line_items[0][price]'),
        };
        this.sessions.set(id, session);
        return { status: 200, body: session };
      }
      const session = this.sessions.get(parts[3] ?? '');
      return session ? { status: 200, body: session } : missing;
    }
    if (parts[1] === 'subscriptions' && parts[2]) {
      const subscription = this.subscriptions.get(parts[2]);
      if (!subscription) return missing;
      if (method === 'POST' && form.has('cancel_at_period_end')) {
        subscription.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
      }
      return { status: 200, body: subscription };
    }
    if (parts[1] === 'products' && method === 'POST') {
      const product = {
        id: `prod_test_${++this.counter}`,
        object: 'product',
        name: form.get('name'),
      };
      this.products.set(product.id, product);
      return { status: 200, body: product };
    }
    if (parts[1] === 'prices' && method === 'POST') {
      const price = {
        id: `price_test_${++this.counter}`,
        object: 'price',
        lookup_key: form.get('lookup_key'),
        unit_amount: Number(form.get('unit_amount')),
      };
      this.prices.set(price.id, price);
      return { status: 200, body: price };
    }
    return missing;
  }
}
