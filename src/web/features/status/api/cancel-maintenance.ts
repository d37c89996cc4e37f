import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { statusQueryKey } from './get-status';

/** POST /api/status/maintenance/{id}/cancel (staff): the window leaves the status page and the feed. */
export const cancelMaintenance = (id: string) => api.post<void>(`/api/status/maintenance/${encodeURIComponent(id)}/cancel`);

export function useCancelMaintenance() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelMaintenance, onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }) });
}
