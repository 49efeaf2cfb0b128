import { useState, type FormEvent } from 'react';
import type { ApiError } from '../../api/client.ts';
import type { PriceInterval } from '@margins/common/payments-constants';
import { formatUsd } from '@margins/common/pricing';
import type { Product } from '@margins/common/schemas/payments';
import { TextField } from '../../components/form/fields.tsx';

/** Buy a plan for someone else: one period, paid once; the code goes to their e-mail. */
export function GiftForm({
  products,
  interval,
  busy,
  onGive,
}: {
  products: Product[];
  interval: PriceInterval;
  busy: boolean;
  onGive: (priceId: string, giftEmail: string) => Promise<ApiError | null | undefined>;
}) {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const giftable = products.filter((product) => product.prices[interval]);
  if (!giftable.length) return null;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const priceId = String(form.get('priceId') ?? '');
    const email = String(form.get('giftEmail') ?? '');
    if (!priceId) return;
    const failure = await onGive(priceId, email);
    setErrors(failure?.errors ?? {});
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="card mt-12 space-y-4 p-6 sm:p-8">
      <h2 className="text-xl font-semibold">Give a plan</h2>
      <p className="text-muted">
        Pay once for a {interval} of a plan; we mail the recipient a code to redeem.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="gift-price" className="field-label">
            Plan
          </label>
          <select id="gift-price" name="priceId" className="field-input w-full">
            {giftable.map((product) => {
              const price = product.prices[interval]!;
              return (
                <option key={price.id} value={price.id}>
                  {product.name} — {formatUsd(price.amount)} / {interval}
                </option>
              );
            })}
          </select>
        </div>
        <TextField
          label="Their e-mail address"
          name="giftEmail"
          type="email"
          errors={errors.giftEmail}
        />
      </div>
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        Buy as a gift
      </button>
    </form>
  );
}
