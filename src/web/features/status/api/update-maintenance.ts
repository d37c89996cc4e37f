import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Maintenance, UpdateMaintenanceBody } from '#shared/schemas/status';
import { api } from '#web/lib/api-client';
import { statusQueryKey } from './get-status';

/** PUT /api/status/maintenance/{id} (staff): edit a window not over yet. */
export const updateMaintenance = ({ id, ...change }: UpdateMaintenanceBody & { id: string }) =>
  api.put<{ maintenance: Maintenance }>(`/api/status/maintenance/${encodeURIComponent(id)}`, change);

export function useUpdateMaintenance() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateMaintenance, onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }) });
}
