import { useEffect, useState } from 'react';
import { MESSAGES } from '@margins/common';
import { formatUsd } from '@margins/common/pricing';
import type { Subscription } from '@margins/common/schemas/payments';
import { changeRenewal, fetchSubscriptions } from '../../api/payments.ts';
import { formatDate } from '../../lib/dates.ts';
import { usePageConfig } from '../../page-config.ts';
import { useFlash, useToast } from '../feedback/feedback.tsx';

/** The confirmation asked before Cancel Renewal (SPEC §4). */
export const CANCEL_CONFIRMATION =
  'Cancel the renewal of this subscription? It stays active until the end of the period you paid for.';

/**
 * The current-subscription panel (SPEC §2, §4): active subscriptions only; Cancel Renewal
 * (confirmed) → "Cancels on {date}" with Keep Subscription; both replace the entry with the
 * returned one. "Complementary subscription" when none is active.
 */
export function SubscriptionPanel() {
  const { productsEnabled } = usePageConfig();
  const flash = useFlash();
  const toast = useToast();
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    fetchSubscriptions()
      .then((answer) =>
        setSubscriptions(answer.subscriptions.filter((item) => item.status === 'active')),
      )
      .catch(() => {
        setSubscriptions([]);
        flash(MESSAGES.unableToRetrieveSubscriptions);
      });
  }, [flash]);

  const change = async (subscription: Subscription, status: 'renew' | 'cancel') => {
    if (status === 'cancel' && !window.confirm(CANCEL_CONFIRMATION)) return;
    setBusy(subscription.id);
    try {
      const answer = await changeRenewal(status, subscription.id);
      setSubscriptions((current) =>
        (current ?? []).map((item) => (item.id === subscription.id ? answer.subscription : item)),
      );
      toast(status === 'cancel' ? MESSAGES.subscriptionCanceled : MESSAGES.subscriptionRenew);
    } catch {
      flash(MESSAGES.cantLocateSubscription);
    } finally {
      setBusy(null);
    }
  };

  if (subscriptions === null) return <p className="text-muted">Loading your subscription…</p>;
  if (subscriptions.length === 0) {
    return (
      <div data-subscription-panel>
        <p data-complementary>Complementary subscription</p>
        {productsEnabled ? (
          <p className="mt-2 text-sm text-muted">
            Want more room? <a href="/products/">See the plans</a>.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <ul className="space-y-4" data-subscription-panel>
      {subscriptions.map((subscription) => {
        const item = subscription.items.data[0];
        const end = item ? formatDate(item.current_period_end) : '';
        return (
          <li
            key={subscription.id}
            className="rounded-xl border border-line p-4"
            data-subscription={subscription.id}
          >
            <p className="font-semibold">{subscription.product.product_name}</p>
            {item ? (
              <p className="text-sm text-muted">
                {formatUsd(item.price.unit_amount)} / {item.price.interval}
                {item.quantity > 1 ? ` × ${item.quantity}` : ''}
              </p>
            ) : null}
            {!subscription.renewable ? (
              <p className="mt-2 text-sm">Ends on {end}</p>
            ) : subscription.cancel_at_period_end ? (
              <div className="mt-3 flex flex-wrap items-center gap-3">
                <p className="text-sm" data-cancels-on>
                  Cancels on {end}
                </p>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy === subscription.id}
                  onClick={() => void change(subscription, 'renew')}
                >
                  Keep Subscription
                </button>
              </div>
            ) : (
              <div className="mt-3 flex flex-wrap items-center gap-3">
                <p className="text-sm text-muted">Renews on {end}</p>
                <button
                  type="button"
                  className="btn btn-secondary"
                  disabled={busy === subscription.id}
                  onClick={() => void change(subscription, 'cancel')}
                >
                  Cancel Renewal
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
