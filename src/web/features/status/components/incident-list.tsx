import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type { Incident } from '#shared/schemas/status';
import { useLocale } from '#web/features/language';
import { IMPACT_LABEL, INCIDENT_STATUS_LABEL, componentName, formatDateTime } from './status-labels';

function IncidentCard({ incident }: { incident: Incident }) {
  const headingId = `incident-${incident._id}`;
  const impact = i18n._(IMPACT_LABEL[incident.impact]);
  const components = incident.components.map((c) => componentName(c, c)).join(', ');
  return (
    <article className="card incident" data-impact={incident.impact} aria-labelledby={headingId}>
      <header className="incident-header">
        <h3 id={headingId}>{incident.title}</h3>
        <p className="incident-meta">
          <span className="incident-badge" data-status={incident.status}>
            {i18n._(INCIDENT_STATUS_LABEL[incident.status])}
          </span>
          <span>{t`${impact} impact`}</span>
          {incident.components.length > 0 && <span>{t`Affects ${components}`}</span>}
        </p>
      </header>
      <ol className="incident-timeline">
        {incident.updates.map((update) => (
          <li key={update._id}>
            <p>
              <strong>{i18n._(INCIDENT_STATUS_LABEL[update.status])}</strong> ·{' '}
              <time dateTime={update.createdAt}>{formatDateTime(update.createdAt)}</time>
            </p>
            <p>{update.message}</p>
          </li>
        ))}
      </ol>
    </article>
  );
}

/** Open incidents first, then the ones resolved within the history window. */
export function IncidentList({ incidents }: { incidents: Incident[] }) {
  useLocale();
  const open = incidents.filter((i) => i.status !== 'resolved');
  const past = incidents.filter((i) => i.status === 'resolved');
  return (
    <>
      <section className="section" aria-labelledby="active-incidents-title">
        <h2 id="active-incidents-title">{t`Active incidents`}</h2>
        {open.length === 0 ? (
          <p className="muted">{t`No active incidents.`}</p>
        ) : (
          <div className="incident-list">
            {open.map((incident) => (
              <IncidentCard key={incident._id} incident={incident} />
            ))}
          </div>
        )}
      </section>
      <section className="section" aria-labelledby="past-incidents-title">
        <h2 id="past-incidents-title">{t`Past incidents`}</h2>
        {past.length === 0 ? (
          <p className="muted">{t`No incidents in the last 90 days.`}</p>
        ) : (
          <div className="incident-list">
            {past.map((incident) => (
              <IncidentCard key={incident._id} incident={incident} />
            ))}
          </div>
        )}
      </section>
    </>
  );
}
