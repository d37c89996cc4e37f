import { STATUS_COMPONENT_NAMES, type Incident } from '#shared/schemas/status';
import { IMPACT_LABEL, INCIDENT_STATUS_LABEL, formatDateTime } from './status-labels';

function IncidentCard({ incident }: { incident: Incident }) {
  const headingId = `incident-${incident._id}`;
  return (
    <article className="card incident" data-impact={incident.impact} aria-labelledby={headingId}>
      <header className="incident-header">
        <h3 id={headingId}>{incident.title}</h3>
        <p className="incident-meta">
          <span className="incident-badge" data-status={incident.status}>
            {INCIDENT_STATUS_LABEL[incident.status]}
          </span>
          <span>{IMPACT_LABEL[incident.impact]} impact</span>
          {incident.components.length > 0 && <span>Affects {incident.components.map((c) => STATUS_COMPONENT_NAMES[c]).join(', ')}</span>}
        </p>
      </header>
      <ol className="incident-timeline">
        {incident.updates.map((update) => (
          <li key={update._id}>
            <p>
              <strong>{INCIDENT_STATUS_LABEL[update.status]}</strong> ·{' '}
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
  const open = incidents.filter((i) => i.status !== 'resolved');
  const past = incidents.filter((i) => i.status === 'resolved');
  return (
    <>
      <section className="section" aria-labelledby="active-incidents-title">
        <h2 id="active-incidents-title">Active incidents</h2>
        {open.length === 0 ? (
          <p className="muted">No active incidents.</p>
        ) : (
          <div className="incident-list">
            {open.map((incident) => (
              <IncidentCard key={incident._id} incident={incident} />
            ))}
          </div>
        )}
      </section>
      <section className="section" aria-labelledby="past-incidents-title">
        <h2 id="past-incidents-title">Past incidents</h2>
        {past.length === 0 ? (
          <p className="muted">No incidents in the last 90 days.</p>
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
