import { sql } from 'drizzle-orm';
import { ADMIN_DASHBOARD_DAYS, type DashboardMetric } from '@margins/common';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '@margins/common/payments-constants';
import type { Executor } from '../../db/index.ts';

/** The dashboard's metrics: what each counts, and which rows' day it counts them on. */
const METRICS = [
  { name: 'signups', label: 'Sign-ups' },
  { name: 'uploads', label: 'Uploads' },
  { name: 'conversions_failed', label: 'Conversions failed' },
  { name: 'open_reports', label: 'Open reports' },
  { name: 'subscriptions', label: 'Subscriptions' },
] as const;

interface MetricRow extends Record<string, unknown> {
  metric: string;
  day: string | null;
  count: number | string;
}

/**
 * Counts per day (UTC) over the last 30 days and the totals, for every metric, in one
 * statement. Subscriptions: the active ones now (the total), and per day the new ones that
 * are active (a checkout left incomplete or a subscription that ended is not a subscriber).
 */
export async function dashboardMetrics(db: Executor): Promise<DashboardMetric[]> {
  const since = sql`((now() at time zone 'UTC')::date - ${ADMIN_DASHBOARD_DAYS - 1}::int)`;
  const active = sql.join(
    ACTIVE_SUBSCRIPTION_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const day = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);
  const result = await db.execute<MetricRow>(sql`
    with events as (
      select 'signups' as metric, ${day('created_at')} as day from users
      union all
      -- Every manuscript was an upload (the demo seed's too, which have no conversion job).
      select 'uploads', ${day('created_at')} from manuscripts
      union all
      select 'conversions_failed', ${day('updated_at')} from document_conversions
        where status in ('FAILURE', 'OVER_WORD_LIMIT')
      union all
      select 'open_reports', ${day('created_at')} from reports where status = 'open'
      union all
      select 'subscriptions', ${day('created_at')} from subscriptions where status in (${active})
    )
    select metric, null::text as day, count(*)::int as count from events
      where metric <> 'subscriptions' group by metric
    union all
    select 'subscriptions', null, count(*)::int from subscriptions where status in (${active})
    union all
    select metric, day::text, count(*)::int from events where day >= ${since} group by metric, day
  `);
  const rows = (result as unknown as { rows: MetricRow[] }).rows;
  const today = new Date();
  const dates: string[] = [];
  for (let back = ADMIN_DASHBOARD_DAYS - 1; back >= 0; back--) {
    const date = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back),
    );
    dates.push(date.toISOString().slice(0, 10));
  }
  return METRICS.map(({ name, label }) => {
    const own = rows.filter((row) => row.metric === name);
    const total = Number(own.find((row) => row.day === null)?.count ?? 0);
    const perDay = new Map(
      own.filter((row) => row.day !== null).map((row) => [row.day, Number(row.count)]),
    );
    return {
      name,
      label,
      total,
      series: dates.map((date) => ({ date, count: perDay.get(date) ?? 0 })),
    };
  });
}
