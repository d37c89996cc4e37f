import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { STATUS_PAGE_REFRESH_MS, type Incident, type StatusComponentReport } from '#shared/schemas/status';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocation, useSearchParams } from 'react-router';
import {
  ComponentIncidents,
  formatDateTime,
  IncidentList,
  MaintenanceList,
  OVERALL_LABEL,
  STATE_LABEL,
  statusFeedPath,
  StatusSubscribe,
  SubscriptionLink,
  UptimeBar,
  useLiveStatus,
} from '#web/features/status';
import '#web/features/status/status.css';
import { PageHeader } from '#web/components/ui/page-header';
import { useLocale } from '#web/features/language';
import { formatLocaleTime } from '#web/lib/format';
import { componentName } from '../components/status-labels';
import { STATUS_COMPONENTS } from '../content/status';

const REFRESH_SECONDS = STATUS_PAGE_REFRESH_MS / 1000;
const descriptionOf = new Map(STATUS_COMPONENTS.map((c) => [c.id, c.description]));

function ComponentCard({ component, incidents }: { component: StatusComponentReport; incidents: Incident[] }) {
  useLocale();
  const headingId = `component-${component.id}`;
  const name = componentName(component.id, component.name);
  const description = descriptionOf.get(component.id);
  const latency = component.latencyMs;
  return (
    <li className="card status-component" data-component={component.id} data-state={component.state}>
      <div className="status-component-head">
        <div>
          <h3 id={headingId}>{name}</h3>
          {description && <p className="muted">{i18n._(description)}</p>}
        </div>
        <p className="state-badge" data-state={component.state}>
          <span className="state-dot" aria-hidden="true" />
          {i18n._(STATE_LABEL[component.state])}
        </p>
      </div>
      <p className="status-component-detail muted">
        {component.checkedAt ? (
          <>
            {t`Checked`} <time dateTime={component.checkedAt}>{formatDateTime(component.checkedAt)}</time>
            {latency !== null && <> · {t`answered in ${latency} ms`}</>}
          </>
        ) : (
          t`Not checked yet`
        )}
        {component.detail && component.state !== 'up' && <> · {component.detail}</>}
      </p>
      <ComponentIncidents component={component} incidents={incidents} />
      <UptimeBar name={name} history={component.history} uptimePercent={component.uptimePercent} measuredDays={component.measuredDays} />
    </li>
  );
}

/** When the page last heard from the server, as a time of day in the page's language. */
function updatedLabel(updatedAt: number): string {
  const time = formatLocaleTime(updatedAt);
  return t`Updated ${time}`;
}

/** Live health of each component (docs/product.md#status-page), refreshed while the page is open. */
export default function StatusPage() {
  const locale = useLocale();
  usePageMeta(
    t`Status`,
    t`Live health of the Olympus API, database, payment provider and swap provider, with 90 days of history and incidents.`,
  );
  const { data, error, loading, updatedAt, refresh } = useLiveStatus();
  // The links in status mails: /status/confirm?token=… and /status/unsubscribe?token=….
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const linkAction = /\/status\/confirm\/?$/.test(pathname) ? 'confirm' : /\/status\/unsubscribe\/?$/.test(pathname) ? 'unsubscribe' : null;

  return (
    <div className="page status-page">
      {/* React puts this in the document head: feed readers find the feed from the page. */}
      <link
        rel="alternate"
        type="application/atom+xml"
        title={t`Olympus status: incidents and maintenance`}
        href={statusFeedPath(locale)}
      />
      {linkAction && <SubscriptionLink action={linkAction} token={params.get('token') ?? ''} />}
      <PageHeader eyebrow={t`System status`} title={t`Olympus Status`}>
        <p>{t`The health of each part of Olympus and of the providers it depends on, checked every minute.`}</p>
      </PageHeader>

      <div className="status-overview" data-state={data?.overall ?? 'unknown'}>
        {/* Announced when it changes, so someone waiting for a fix hears it without reloading. */}
        <p className="status-overall" aria-live="polite">
          {data ? i18n._(OVERALL_LABEL[data.overall]) : error ? t`Status unavailable` : t`Loading the current status…`}
        </p>
        <div className="status-refresh">
          <p className="muted">
            {updatedAt ? updatedLabel(updatedAt) : t`Not loaded yet`} ·{' '}
            {plural(REFRESH_SECONDS, { one: 'refreshes every # second', other: 'refreshes every # seconds' })}
          </p>
          <button type="button" className="btn btn-secondary btn-small" onClick={refresh} disabled={loading}>
            {loading ? t`Refreshing…` : t`Refresh now`}
          </button>
        </div>
      </div>

      {error && (
        <div className="notice" role="alert">
          <p>
            <strong>{t`We could not load the live status.`}</strong> {data ? `${t`Showing the last status we loaded.`} ` : ''}
            {error}
          </p>
        </div>
      )}

      <section className="section" aria-labelledby="components-title" aria-busy={loading && !data}>
        <h2 id="components-title">{t`Components`}</h2>
        {data ? (
          <ul className="status-components">
            {data.components.map((component) => (
              <ComponentCard key={component.id} component={component} incidents={data.incidents} />
            ))}
          </ul>
        ) : (
          <ul className="status-components">
            {STATUS_COMPONENTS.map((component) => (
              <li key={component.id} className="card status-component" data-state="unknown">
                <h3>{i18n._(component.name)}</h3>
                <p className="muted">{i18n._(component.description)}</p>
                <p className="muted">{error ? t`Status unavailable` : t`Loading…`}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      {data && <MaintenanceList maintenance={data.maintenance} />}
      {data && <IncidentList incidents={data.incidents} />}
      <StatusSubscribe />
    </div>
  );
}
