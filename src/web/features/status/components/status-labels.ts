import type { ComponentState, IncidentImpact, IncidentStatus, OverallState, StatusDay } from '#shared/schemas/status';
import { formatUptime } from '#web/lib/format';

/** Words first: colour only repeats what the text says. */
export const STATE_LABEL: Record<ComponentState, string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'No recent check',
};

export const OVERALL_LABEL: Record<OverallState, string> = {
  up: 'All systems operational',
  degraded: 'Some systems are degraded',
  down: 'Some systems are down',
  unknown: 'Some systems have not been checked recently',
  maintenance: 'Maintenance in progress',
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
  return value === null ? 'No data' : formatUptime(value);
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** "99.2% uptime over 12 days measured": a figure only ever with the days it stands on. */
export function uptimeSummary(uptimePercent: number | null, measuredDays: number): string {
  if (uptimePercent === null || measuredDays === 0) return 'No data yet';
  return `${formatPercent(uptimePercent)} uptime over ${days(measuredDays)} measured`;
}

export { formatDateTime } from '#web/lib/format';
