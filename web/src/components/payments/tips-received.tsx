import { useEffect, useState } from 'react';
import { formatUsd } from '@margins/common/pricing';
import type { ReceivedTipsResponse } from '@margins/common/schemas/payments';
import { fetchReceivedTips } from '../../api/payments.ts';
import { formatDate } from '../../lib/dates.ts';
import { usePageConfig } from '../../page-config.ts';

/** The tips an author received (their dashboard); nothing when there are none. */
export function TipsReceived() {
  const { productsEnabled } = usePageConfig();
  const [tips, setTips] = useState<ReceivedTipsResponse | null>(null);
  useEffect(() => {
    if (!productsEnabled) return;
    fetchReceivedTips()
      .then(setTips)
      .catch(() => setTips(null));
  }, [productsEnabled]);
  if (!tips || tips.tips.length === 0) return null;
  return (
    <section aria-labelledby="tips-heading" className="mt-14" id="tips" data-tips-received>
      <h2 id="tips-heading" className="text-2xl font-semibold">
        Tips received <span className="text-muted">· {formatUsd(tips.total)}</span>
      </h2>
      <ul className="mt-4 divide-y divide-line rounded-xl border border-line">
        {tips.tips.map((tip) => (
          <li
            key={tip.id}
            className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3"
          >
            <span>
              <strong>{formatUsd(tip.amount)}</strong>
              {tip.manuscript ? <> for “{tip.manuscript.title}”</> : null}
              <span className="text-muted"> from {tip.from?.display_name ?? 'a reader'}</span>
            </span>
            <span className="text-sm text-muted">{formatDate(tip.created)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
