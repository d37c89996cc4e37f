import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateMaintenanceBody, Maintenance } from '#shared/schemas/status';
import { api } from '#web/lib/api-client';
import { statusQueryKey } from './get-status';

/** POST /api/status/maintenance (staff): a maintenance window announced on the status page. */
export const createMaintenance = (input: CreateMaintenanceBody) => api.post<{ maintenance: Maintenance }>('/api/status/maintenance', input);

export function useCreateMaintenance() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createMaintenance, onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }) });
}
