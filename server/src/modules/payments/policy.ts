import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { PolicyUser } from '../access/policy.ts';

/** A subscription may be changed only by the user it belongs to (staff included: no one else). */
export function canModifySubscription(user: PolicyUser, subscription: { userId: number }): boolean {
  return user !== null && user.id === subscription.userId;
}

/** Checkout and tips exist only with productsEnabled (SPEC §6): otherwise 404. */
export function requireProducts(ctx: Pick<AppContext, 'config'>): void {
  if (!ctx.config.productsEnabled) throw notFound(PAYMENT_MESSAGES.productsDisabled);
}
