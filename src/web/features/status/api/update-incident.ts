import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { INCIDENT_STATUSES } from '#shared/schemas/status';
import { api } from '#web/lib/api-client';
import { statusQueryKey } from './get-status';

export interface UpdateIncidentInput {
  id: string;
  status: (typeof INCIDENT_STATUSES)[number];
  /** Optional: an update line under the incident. */
  message?: string;
}

/** PUT /api/status/incidents/{id} (staff): a new state for an incident, with or without an update line. */
export const updateIncident = ({ id, ...change }: UpdateIncidentInput) =>
  api.put(`/api/status/incidents/${encodeURIComponent(id)}`, change);

export function useUpdateIncident() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateIncident, onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }) });
}
