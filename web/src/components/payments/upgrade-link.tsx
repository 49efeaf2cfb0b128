import { MESSAGES } from '@margins/common';
import { usePageConfig } from '../../page-config.ts';

/** After the over-limit message (SPEC §8): the way to the next tier, on the pricing page. */
export function UpgradeLink({ message }: { message: string | null | undefined }) {
  const { productsEnabled } = usePageConfig();
  if (!productsEnabled || message !== MESSAGES.overWordLimit) return null;
  return (
    <p className="mt-1">
      <a href="/products/" data-upgrade-link>
        See the plans with a higher word limit
      </a>
    </p>
  );
}
