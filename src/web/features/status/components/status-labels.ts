import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { ComponentState, IncidentImpact, IncidentStatus, OverallState, StatusComponentId, StatusDay } from '#shared/schemas/status';
import { formatLocalePercent } from '#web/lib/format';

/** Words first: colour only repeats what the text says. */
// Descriptors, translated where they render (`i18n._(label)`, decision 0326).
export const STATE_LABEL: Record<ComponentState, MessageDescriptor> = {
  up: msg`Operational`,
  degraded: msg`Degraded`,
  down: msg`Down`,
  unknown: msg`No recent check`,
};

export const OVERALL_LABEL: Record<OverallState, MessageDescriptor> = {
  up: msg`All systems operational`,
  degraded: msg`Some systems are degraded`,
  down: msg`Some systems are down`,
  unknown: msg`Some systems have not been checked recently`,
  maintenance: msg`Maintenance in progress`,
};

export const IMPACT_LABEL: Record<IncidentImpact, MessageDescriptor> = { minor: msg`Minor`, major: msg`Major`, critical: msg`Critical` };

export const INCIDENT_STATUS_LABEL: Record<IncidentStatus, MessageDescriptor> = {
  investigating: msg`Investigating`,
  identified: msg`Identified`,
  monitoring: msg`Monitoring`,
  resolved: msg`Resolved`,
};

/** The components' names as the page shows them (the report's own names are English). */
const COMPONENT_NAME: Record<StatusComponentId, MessageDescriptor> = {
  api: msg`API`,
  database: msg`Database`,
  'payment-provider': msg`Payment provider`,
  'swap-provider': msg`Swap provider`,
};

/** A component's name in the page's language; a component the web does not know keeps the report's name. */
export function componentName(id: string, fallback: string): string {
  const label = COMPONENT_NAME[id as StatusComponentId] as MessageDescriptor | undefined;
  return label ? i18n._(label) : fallback;
}

export type DayLevel = 'none' | 'up' | 'degraded' | 'partial' | 'down';

/** A day's colour: any failed check shows, heavier when the day's uptime fell below 95%. */
export function dayLevel(day: StatusDay): DayLevel {
  if (day.uptimePercent === null) return 'none';
  if (day.down > 0) return day.uptimePercent < 95 ? 'down' : 'partial';
  if (day.degraded > 0) return 'degraded';
  return 'up';
}

export function formatPercent(value: number | null): string {
  return value === null ? t`No data` : formatLocalePercent(value, value === 100 ? 0 : 2);
}

/** "99.2% uptime over 12 days measured": a figure only ever with the days it stands on. */
export function uptimeSummary(uptimePercent: number | null, measuredDays: number): string {
  if (uptimePercent === null || measuredDays === 0) return t`No data yet`;
  const percent = formatPercent(uptimePercent);
  return plural(measuredDays, { one: `${percent} uptime over # day measured`, other: `${percent} uptime over # days measured` });
}

export { formatLocaleDateTime as formatDateTime } from '#web/lib/format';
