import { useEffect, useState } from 'react';
import type { Product } from '@margins/common/schemas/payments';
import { fetchProducts, fetchSubscriptions } from '../../api/payments.ts';
import { usePageConfig } from '../../page-config.ts';
import { AppLink } from '../layout/app-link.tsx';
import { GiftRedeemForm } from './gift-redeem-form.tsx';

/**
 * The member page's plan block: a subscriber sees what their tier gives; others the way to get
 * it (the pricing page, or sign-up first). Logged-in users can redeem a gift code.
 */
export function MemberTier() {
  const { loginState, productsEnabled } = usePageConfig();
  const [tier, setTier] = useState<Product | null | undefined>(undefined);

  useEffect(() => {
    if (loginState !== 'logged_in') {
      setTier(null);
      return;
    }
    Promise.all([fetchSubscriptions(), productsEnabled ? fetchProducts() : null])
      .then(([subscriptions, products]) => {
        const name = subscriptions.subscriptions[0]?.product.product_name;
        const all = products ? Object.values(products.products) : [];
        setTier(name ? (all.find((product) => product.name === name) ?? null) : null);
      })
      .catch(() => setTier(null));
  }, [loginState, productsEnabled]);

  if (tier === undefined) return null;
  return (
    <>
      {tier ? (
        <div className="card mt-10 p-6 sm:p-8" data-member-tier={tier.name}>
          <h2 className="text-xl font-semibold">You are on {tier.name}</h2>
          <ul className="mt-3 space-y-1">
            {tier.marketing_features.map((feature) => (
              <li key={feature.name}>✓ {feature.name}</li>
            ))}
          </ul>
          <p className="mt-3 text-sm text-muted">
            Manage it on <a href="/profile/#subscription">your profile</a>.
          </p>
        </div>
      ) : (
        <div className="card mt-10 p-6 sm:p-8">
          <h2 className="text-xl font-semibold">Become a member</h2>
          <p className="mt-2 max-w-2xl text-muted">
            Choose a plan for more room and deeper feedback; you can cancel its renewal at any time.
          </p>
          <div className="mt-5 flex flex-wrap gap-3">
            {loginState === 'anonymous' ? (
              <AppLink to="/auth/signup" className="btn btn-primary">
                Create a free account
              </AppLink>
            ) : null}
            {productsEnabled ? (
              <a href="/products/" className="btn btn-secondary">
                See the plans
              </a>
            ) : null}
          </div>
        </div>
      )}
      {loginState === 'logged_in' ? <GiftRedeemForm /> : null}
    </>
  );
}
