import { useEffect, useState } from 'react';
import { MESSAGES } from '@margins/common';
import {
  DEFAULT_PRICING_INTERVAL,
  PRICE_INTERVALS,
  type PriceInterval,
} from '@margins/common/payments-constants';
import { sortForPricing } from '@margins/common/pricing';
import { checkoutOffer, productsResponse, type Product } from '@margins/common/schemas/payments';
import { fetchProducts, startCheckout } from '../../api/payments.ts';
import { useFlash } from '../../components/feedback/feedback.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';
import { GiftForm } from './gift-form.tsx';
import { PricingCard } from './pricing-card.tsx';
import { WaitingListForm } from './waiting-list-form.tsx';

const INTERVAL_LABELS: Record<PriceInterval, string> = { month: 'Monthly', year: 'Yearly' };

/** The products of the page data, or null when it carries none (then they are fetched). */
function initialProducts(data: Record<string, unknown>): Product[] | null {
  const parsed = productsResponse.safeParse({ products: data.products });
  if (!parsed.success) return null;
  const products = Object.values(parsed.data.products);
  return products.length ? products : null;
}

/**
 * The pricing page (/products/): SPEC's product table — three columns, a month/year switch
 * (year first), each paid price starting checkout — and the waiting list. Without
 * productsEnabled only the waiting list is shown.
 */
export function PricingPage() {
  const { data, loginState, productsEnabled } = usePageConfig();
  const flash = useFlash();
  const [products, setProducts] = useState<Product[] | null>(() => initialProducts(data));
  const [interval, setInterval] = useState<PriceInterval>(DEFAULT_PRICING_INTERVAL);
  const [busy, setBusy] = useState(false);
  const offer = checkoutOffer.safeParse(data.checkout);
  const subscribed = data.subscribed === true;
  useDocumentTitle('Pricing');

  useEffect(() => {
    if (!productsEnabled || products) return;
    fetchProducts()
      .then((answer) => setProducts(Object.values(answer.products)))
      .catch(() => flash(MESSAGES.unableToRetrieveProducts));
  }, [productsEnabled, products, flash]);

  const choose = async (priceId: string, giftEmail?: string) => {
    if (!offer.success) return;
    if (loginState !== 'logged_in') {
      window.location.assign(`/auth/login?next=${encodeURIComponent('/products/')}`);
      return;
    }
    setBusy(true);
    const failure = await startCheckout(
      {
        priceId,
        tipFor: offer.data.tipFor,
        sig: offer.data.sig,
        nextUrl: offer.data.nextUrl,
        loginState,
        ...(giftEmail ? { giftEmail } : {}),
      },
      flash,
    );
    setBusy(false);
    return failure;
  };

  const freeAction =
    loginState === 'anonymous' ? (
      <AppLink to="/auth/signup" className="btn btn-secondary w-full">
        Start free
      </AppLink>
    ) : (
      <p className="text-center text-sm text-muted">Every account has it</p>
    );

  return (
    <PageContainer width="wide">
      <PageHeading
        eyebrow="Plans"
        title="Pricing"
        lead="Margins is free to read and to share a first manuscript. Plans give you room for more, and keep an independent place for writers open."
      />
      {productsEnabled ? (
        <>
          <div
            role="group"
            aria-label="Billing interval"
            className="mb-8 inline-flex rounded-full border border-line p-1"
          >
            {PRICE_INTERVALS.map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={interval === value}
                className={`rounded-full px-5 py-1.5 text-sm font-semibold ${interval === value ? 'bg-accent text-on-accent' : 'text-muted'}`}
                onClick={() => setInterval(value)}
              >
                {INTERVAL_LABELS[value]}
              </button>
            ))}
          </div>
          {subscribed ? (
            <p className="mb-6 text-muted" data-subscribed>
              You have a plan already: see it, or cancel its renewal, on{' '}
              <a href="/profile/#subscription">your profile</a>.
            </p>
          ) : null}
          {products ? (
            <ul className="grid gap-6 md:grid-cols-3" data-testid="pricing-grid">
              {sortForPricing(products).map((product) => (
                <PricingCard
                  key={product.id}
                  product={product}
                  interval={interval}
                  busy={busy}
                  onChoose={(priceId) => void choose(priceId)}
                  action={freeAction}
                />
              ))}
            </ul>
          ) : (
            <p className="text-muted">Loading the plans…</p>
          )}
          {products && loginState === 'logged_in' ? (
            <GiftForm products={products} interval={interval} onGive={choose} busy={busy} />
          ) : null}
        </>
      ) : null}
      <WaitingListForm />
    </PageContainer>
  );
}
