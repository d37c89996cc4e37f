import type { ComponentState, IncidentImpact, IncidentStatus, StatusDay } from '#shared/schemas/status';

/** Words first: colour only repeats what the text says. */
export const STATE_LABEL: Record<ComponentState, string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'No recent check',
};

export const OVERALL_LABEL: Record<ComponentState, string> = {
  up: 'All systems operational',
  degraded: 'Some systems are degraded',
  down: 'Some systems are down',
  unknown: 'Some systems have not been checked recently',
};

export const IMPACT_LABEL: Record<IncidentImpact, string> = { minor: 'Minor', major: 'Major', critical: 'Critical' };

export const INCIDENT_STATUS_LABEL: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export type DayLevel = 'none' | 'up' | 'degraded' | 'partial' | 'down';

/** A day's colour: any failed check shows, heavier when the day's uptime fell below 95%. */
export function dayLevel(day: StatusDay): DayLevel {
  if (day.uptimePercent === null) return 'none';
  if (day.down > 0) return day.uptimePercent < 95 ? 'down' : 'partial';
  if (day.degraded > 0) return 'degraded';
  return 'up';
}

export function formatPercent(value: number | null): string {
  if (value === null) return 'no data';
  return `${value.toFixed(value === 100 ? 0 : 2)}%`;
}

export { formatDateTime } from '#web/lib/format';
