/**
 * What other features may use of the status feature (the lint rule in eslint.config.js keeps the rest
 * private): the report's queries, for the status page, and the incident changes staff make.
 */
export { statusQueryOptions, useLiveStatus, type LiveStatus } from './api/get-status';
export { useCreateIncident, type CreateIncidentInput } from './api/create-incident';
export { useUpdateIncident } from './api/update-incident';
export { IncidentList } from './components/incident-list';
export { OVERALL_LABEL, STATE_LABEL, formatDateTime } from './components/status-labels';
export { UptimeBar } from './components/uptime-bar';
export { ComponentIncidents } from './components/component-incidents';
export { useCreateMaintenance } from './api/create-maintenance';
export { useUpdateMaintenance } from './api/update-maintenance';
export { useCancelMaintenance } from './api/cancel-maintenance';
export { MaintenanceList } from './components/maintenance-list';
export { STATUS_FEED_PATH, StatusSubscribe, SubscriptionLink, statusFeedPath } from './components/status-subscribe';
