import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '#shared/schemas/charges';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

/** POST /api/admin/api-keys/:id/revoke: the key stops working at once. */
export const revokeApiKey = (id: string) => api.post<{ apiKey: ApiKey }>(`/api/admin/api-keys/${encodeURIComponent(id)}/revoke`);

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.apiKeys() }),
  });
}
