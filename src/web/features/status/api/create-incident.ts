import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { INCIDENT_IMPACTS } from '#shared/schemas/status';
import { api } from '#web/lib/api-client';
import { statusQueryKey } from './get-status';

export interface CreateIncidentInput {
  title: string;
  impact: (typeof INCIDENT_IMPACTS)[number];
  components: string[];
  message: string;
}

/** POST /api/status/incidents (staff): a new incident on the status page. */
export const createIncident = (input: CreateIncidentInput) => api.post('/api/status/incidents', input);

export function useCreateIncident() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createIncident, onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }) });
}
