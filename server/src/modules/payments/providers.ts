import type { AppContext } from '../../context.ts';
import { LocalProvider } from './local-provider.ts';
import type { PaymentsProvider } from './provider.ts';
import { createStripeClient, StripeProvider } from './stripe-provider.ts';

const providers = new WeakMap<AppContext, PaymentsProvider>();

/** The app's payments provider: Stripe with STRIPE_SECRET_KEY, else the local one. */
export function paymentsProvider(ctx: AppContext): PaymentsProvider {
  let provider = providers.get(ctx);
  if (!provider) {
    provider = ctx.config.stripeSecretKey
      ? new StripeProvider(createStripeClient(ctx.config.stripeSecretKey))
      : new LocalProvider(ctx.db);
    providers.set(ctx, provider);
  }
  return provider;
}

/** Puts a given provider in place (tests: Stripe's SDK pointed at a local stub). */
export function usePaymentsProvider(ctx: AppContext, provider: PaymentsProvider): void {
  providers.set(ctx, provider);
}
