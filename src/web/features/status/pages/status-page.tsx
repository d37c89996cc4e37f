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
  STATUS_FEED_PATH,
  StatusSubscribe,
  SubscriptionLink,
  UptimeBar,
  useLiveStatus,
} from '#web/features/status';
import '#web/features/status/status.css';
import { PageHeader } from '#web/components/ui/page-header';
import { STATUS_COMPONENTS } from '../content/status';

const REFRESH_SECONDS = STATUS_PAGE_REFRESH_MS / 1000;
const descriptionOf = new Map(STATUS_COMPONENTS.map((c) => [c.id, c.description]));

function ComponentCard({ component, incidents }: { component: StatusComponentReport; incidents: Incident[] }) {
  const headingId = `component-${component.id}`;
  return (
    <li className="card status-component" data-component={component.id} data-state={component.state}>
      <div className="status-component-head">
        <div>
          <h3 id={headingId}>{component.name}</h3>
          {descriptionOf.get(component.id) && <p className="muted">{descriptionOf.get(component.id)}</p>}
        </div>
        <p className="state-badge" data-state={component.state}>
          <span className="state-dot" aria-hidden="true" />
          {STATE_LABEL[component.state]}
        </p>
      </div>
      <p className="status-component-detail muted">
        {component.checkedAt ? (
          <>
            Checked <time dateTime={component.checkedAt}>{formatDateTime(component.checkedAt)}</time>
            {component.latencyMs !== null && <> · answered in {component.latencyMs} ms</>}
          </>
        ) : (
          'Not checked yet'
        )}
        {component.detail && component.state !== 'up' && <> · {component.detail}</>}
      </p>
      <ComponentIncidents component={component} incidents={incidents} />
      <UptimeBar
        name={component.name}
        history={component.history}
        uptimePercent={component.uptimePercent}
        measuredDays={component.measuredDays}
      />
    </li>
  );
}

/** Live health of each component (docs/product.md#status-page), refreshed while the page is open. */
export default function StatusPage() {
  usePageMeta(
    'Status',
    'Live health of the Olympus API, database, payment provider and swap provider, with 90 days of history and incidents.',
  );
  const { data, error, loading, updatedAt, refresh } = useLiveStatus();
  // The links in status mails: /status/confirm?token=… and /status/unsubscribe?token=….
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const linkAction = /\/status\/confirm\/?$/.test(pathname) ? 'confirm' : /\/status\/unsubscribe\/?$/.test(pathname) ? 'unsubscribe' : null;

  return (
    <div className="page status-page">
      {/* React puts this in the document head: feed readers find the feed from the page. */}
      <link rel="alternate" type="application/atom+xml" title="Olympus status: incidents and maintenance" href={STATUS_FEED_PATH} />
      {linkAction && <SubscriptionLink action={linkAction} token={params.get('token') ?? ''} />}
      <PageHeader eyebrow="System status" title="Olympus Status">
        <p>The health of each part of Olympus and of the providers it depends on, checked every minute.</p>
      </PageHeader>

      <div className="status-overview" data-state={data?.overall ?? 'unknown'}>
        {/* Announced when it changes, so someone waiting for a fix hears it without reloading. */}
        <p className="status-overall" aria-live="polite">
          {data ? OVERALL_LABEL[data.overall] : error ? 'Status unavailable' : 'Loading the current status…'}
        </p>
        <div className="status-refresh">
          <p className="muted">
            {updatedAt ? `Updated ${new Date(updatedAt).toLocaleTimeString()}` : 'Not loaded yet'} · refreshes every {REFRESH_SECONDS}{' '}
            seconds
          </p>
          <button type="button" className="btn btn-secondary btn-small" onClick={refresh} disabled={loading}>
            {loading ? 'Refreshing…' : 'Refresh now'}
          </button>
        </div>
      </div>

      {error && (
        <div className="notice" role="alert">
          <p>
            <strong>We could not load the live status.</strong> {data ? 'Showing the last status we loaded. ' : ''}
            {error}
          </p>
        </div>
      )}

      <section className="section" aria-labelledby="components-title" aria-busy={loading && !data}>
        <h2 id="components-title">Components</h2>
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
                <h3>{component.name}</h3>
                <p className="muted">{component.description}</p>
                <p className="muted">{error ? 'Status unavailable' : 'Loading…'}</p>
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
