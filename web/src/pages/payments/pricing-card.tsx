import type { PriceInterval } from '@margins/common/payments-constants';
import { priceDisplay } from '@margins/common/pricing';
import type { Product } from '@margins/common/schemas/payments';

/** One product of the pricing grid for the chosen interval (SPEC §2 Pricing page). */
export function PricingCard({
  product,
  interval,
  busy,
  onChoose,
  action,
}: {
  product: Product;
  interval: PriceInterval;
  busy: boolean;
  /** Starts checkout for a price id; not called without one (SPEC §5). */
  onChoose: (priceId: string) => void;
  /** What a free product's card offers instead of a price button. */
  action: React.ReactNode;
}) {
  const display = priceDisplay(product, interval);
  const other = interval === 'year' ? 'monthly' : 'yearly';
  return (
    <li
      className="card flex flex-col p-6"
      data-product={product.name}
      aria-labelledby={`product-${product.id}`}
    >
      <h2 id={`product-${product.id}`} className="text-xl font-semibold">
        {product.name}
      </h2>
      <p className="mt-2 min-h-12 text-sm text-muted">{product.description}</p>
      {display ? (
        <div className="mt-5" data-price>
          <p className="flex items-baseline gap-2">
            <span className="text-4xl font-semibold tracking-tight">{display.amount}</span>
            <span className="text-muted">{display.per}</span>
          </p>
          <p className="mt-1 min-h-6 text-sm font-semibold text-accent" data-savings>
            {display.savings ?? ''}
          </p>
        </div>
      ) : (
        <p className="mt-5 min-h-16 text-muted">Only offered {other}.</p>
      )}
      <ul className="mt-4 flex-1 space-y-2 text-sm">
        {product.marketing_features.map((feature) => (
          <li key={feature.name} className="flex gap-2">
            <span aria-hidden="true" className="text-accent">
              ✓
            </span>
            {feature.name}
          </li>
        ))}
      </ul>
      <div className="mt-6">
        {display?.priceId ? (
          <button
            type="button"
            className="btn btn-primary w-full"
            data-price-id={display.priceId}
            disabled={busy}
            onClick={() => {
              if (display.priceId) onChoose(display.priceId);
            }}
          >
            Choose {product.name}
          </button>
        ) : display ? (
          action
        ) : null}
      </div>
    </li>
  );
}
