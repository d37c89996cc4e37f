import { formatCredits } from '#shared/fees';
import type { OverviewResponse } from '#shared/schemas/admin';
import { errorMessage } from '#web/lib/api-client';
import { useOverview } from '../api/get-overview';

type Metric = 'signups' | 'deposits' | 'creditsIssuedCents' | 'creditsSpentCents' | 'ticketsOpened' | 'openTickets';

/**
 * `level` marks a count at the end of each day (a backlog) rather than what happened during it: its
 * summary is the last day's value, since adding the days up would mean nothing.
 */
const METRICS: Array<{ key: Metric; label: string; money?: boolean; level?: boolean }> = [
  { key: 'signups', label: 'Sign-ups' },
  { key: 'deposits', label: 'Deposits' },
  { key: 'creditsIssuedCents', label: 'Credits issued', money: true },
  { key: 'creditsSpentCents', label: 'Credits spent', money: true },
  { key: 'ticketsOpened', label: 'Tickets opened' },
  { key: 'openTickets', label: 'Open tickets', level: true },
];

/** A small bar chart in SVG (no chart library: the console stays light). */
function BarChart({ data, metric }: { data: OverviewResponse['days']; metric: (typeof METRICS)[number] }) {
  const values = data.map((d) => d[metric.key]);
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const last = values.at(-1) ?? 0;
  const width = 300;
  const height = 80;
  const bar = width / data.length;
  const show = (v: number) => (metric.money ? formatCredits(v) : String(v));
  return (
    <figure className="admin-chart">
      <figcaption>
        <strong>{metric.label}</strong>{' '}
        <span className="muted">{metric.level ? `${show(last)} at the end of the last day` : `${show(total)} in ${data.length} days`}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={
          metric.level
            ? `${metric.label} at the end of each day, ${show(last)} on the last day`
            : `${metric.label} per day, ${show(total)} in total`
        }
        preserveAspectRatio="none"
      >
        {data.map((d, i) => {
          const h = (d[metric.key] / max) * (height - 4);
          return (
            <rect key={d.day} x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} rx={1}>
              <title>{`${d.day}: ${show(d[metric.key])}`}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}

export function OverviewPanel() {
  const overview = useOverview(30);
  const data = overview.data ?? null;
  const error = overview.isError ? errorMessage(overview.error, 'Failed to load the overview') : null;

  if (error)
    return (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  if (!data) return <p aria-busy="true">Loading overview…</p>;
  return (
    <section className="admin-panel" aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <p>
        {data.totalUsers} users · {data.openTickets} open tickets
      </p>
      <div className="admin-charts">
        {METRICS.map((m) => (
          <BarChart key={m.key} data={data.days} metric={m} />
        ))}
      </div>
    </section>
  );
}
