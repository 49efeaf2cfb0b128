import { useQuery } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { ADMIN_TREND_DAYS, ADMIN_UI_MESSAGES, MESSAGES } from '@margins/common';
import type { DashboardMetric } from './admin-types.ts';
import { useAdminSetup } from './admin-meta.ts';
import { Sparkline } from './sparkline.tsx';
import { formatCount } from '../../lib/numbers.ts';

function MetricCard({ metric }: { metric: DashboardMetric }) {
  const counts = metric.series.map((day) => day.count);
  const lastDays = counts.reduce((sum, count) => sum + count, 0);
  const first = metric.series[0]?.date;
  const last = metric.series.at(-1)?.date;
  return (
    <li className="admin-metric" data-metric={metric.name}>
      <h2 className="admin-metric-label">{metric.label}</h2>
      <p className="admin-metric-total">{formatCount(metric.total)}</p>
      <Sparkline
        counts={counts}
        label={`${ADMIN_UI_MESSAGES.dashboardTrend(metric.label, counts.length)}: ${counts.join(', ')}`}
      />
      <p className="admin-metric-note">
        {formatCount(lastDays)} in the last {counts.length || ADMIN_TREND_DAYS} days
        {first && last ? (
          <span className="sr-only">
            {' '}
            ({first} to {last})
          </span>
        ) : null}
      </p>
    </li>
  );
}

/** The admin index: each metric's total and its trend over the last 30 days. */
export function AdminDashboard() {
  const { dataProvider } = useAdminSetup();
  const dashboard = useQuery({
    queryKey: ['admin-dashboard'],
    queryFn: () => dataProvider.dashboard(),
  });
  return (
    <div className="admin-dashboard">
      <Title title="Dashboard" />
      {dashboard.isPending ? <p aria-busy="true">Loading…</p> : null}
      {dashboard.isError ? <p role="alert">{MESSAGES.serverError}</p> : null}
      {dashboard.data ? (
        <ul className="admin-metrics">
          {dashboard.data.metrics.map((metric) => (
            <MetricCard key={metric.name} metric={metric} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
