import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type { Incident, StatusComponentReport } from '#shared/schemas/status';
import { useLocale } from '#web/features/language';
import { IMPACT_LABEL, INCIDENT_STATUS_LABEL } from './status-labels';

function impactIncident(incident: Incident): string {
  const impact = i18n._(IMPACT_LABEL[incident.impact]);
  return t`${impact} incident:`;
}

/**
 * The open incidents naming one component: why its state may be worse than its last check (an open
 * incident sets it by its impact, decision 0230), with a link down to the incident's timeline.
 */
export function ComponentIncidents({ component, incidents }: { component: StatusComponentReport; incidents: Incident[] }) {
  useLocale();
  const open = incidents.filter((i) => i.status !== 'resolved' && i.components.includes(component.id));
  if (open.length === 0) return null;
  return (
    <ul className="status-component-incidents">
      {open.map((incident) => (
        <li key={incident._id} data-impact={incident.impact}>
          <strong>{impactIncident(incident)}</strong> <a href={`#incident-${incident._id}`}>{incident.title}</a>{' '}
          <span className="muted">({i18n._(INCIDENT_STATUS_LABEL[incident.status]).toLowerCase()})</span>
        </li>
      ))}
    </ul>
  );
}
