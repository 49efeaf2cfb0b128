import { lazy, Suspense } from 'react';

// Chart.js and the panel load only when the author opens the tab.
const InsightsPanel = lazy(() => import('./insights-panel.tsx'));

/** The Insights tab of a manuscript (the author's own): loads its code on first open. */
export function InsightsTab({ manuscriptId }: { manuscriptId: number }) {
  return (
    <Suspense fallback={<p className="text-sm text-muted">Loading insights…</p>}>
      <InsightsPanel manuscriptId={manuscriptId} />
    </Suspense>
  );
}
