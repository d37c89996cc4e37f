import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { OverviewResponse } from '#shared/schemas/admin';
import { errorMessage } from '#web/lib/api-client';
import { useLocale } from '#web/features/language';
import { useOverview } from '../api/get-overview';
import { formatLocaleCreditCents, formatLocaleDate } from '#web/lib/format';

type Metric = 'signups' | 'deposits' | 'creditsIssuedCents' | 'creditsSpentCents' | 'ticketsOpened' | 'openTickets';

/**
 * `level` marks a count at the end of each day (a backlog) rather than what happened during it: its
 * summary is the last day's value, since adding the days up would mean nothing.
 */
const METRICS: Array<{ key: Metric; label: MessageDescriptor; money?: boolean; level?: boolean }> = [
  { key: 'signups', label: msg`Sign-ups` },
  { key: 'deposits', label: msg`Deposits` },
  { key: 'creditsIssuedCents', label: msg`Credits issued`, money: true },
  { key: 'creditsSpentCents', label: msg`Credits spent`, money: true },
  { key: 'ticketsOpened', label: msg`Tickets opened` },
  { key: 'openTickets', label: msg`Open tickets`, level: true },
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
  const show = (v: number) => (metric.money ? formatLocaleCreditCents(v) : String(v));
  const label = i18n._(metric.label);
  const days = data.length;
  const lastDay = show(last);
  const sum = show(total);
  // No placeholder inside a plural's branches: the pseudo-locale script keeps only one level of braces whole.
  // The same message as the requester's "Member for" (requester-context-panel.tsx): both put the count
  // after a preposition ("in 30 days", German "seit"), so German says it in the dative ("in 30 Tagen").
  const daysText = plural(days, { one: '# day', other: '# days' });
  return (
    <figure className="admin-chart">
      <figcaption>
        <strong>{label}</strong>{' '}
        <span className="muted">{metric.level ? t`${lastDay} at the end of the last day` : t`${sum} in ${daysText}`}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={metric.level ? t`${label} at the end of each day, ${lastDay} on the last day` : t`${label} per day, ${sum} in total`}
        preserveAspectRatio="none"
      >
        {data.map((d, i) => {
          const h = (d[metric.key] / max) * (height - 4);
          return (
            <rect key={d.day} x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} rx={1}>
              <title>{`${formatLocaleDate(d.day)}: ${show(d[metric.key])}`}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}

export function OverviewPanel() {
  useLocale();
  const overview = useOverview(30);
  const data = overview.data ?? null;
  const error = overview.isError ? errorMessage(overview.error, t`Failed to load the overview`) : null;

  if (error)
    return (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  if (!data) return <p aria-busy="true">{t`Loading overview…`}</p>;
  const { totalUsers, openTickets } = data;
  return (
    <section className="admin-panel" aria-labelledby="overview-title">
      <h2 id="overview-title">{t`Overview`}</h2>
      <p>{t`${totalUsers} users · ${openTickets} open tickets`}</p>
      <div className="admin-charts">
        {METRICS.map((m) => (
          <BarChart key={m.key} data={data.days} metric={m} />
        ))}
      </div>
    </section>
  );
}
