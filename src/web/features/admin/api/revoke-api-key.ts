import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '#shared/schemas/charges';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

/** POST /api/admin/api-keys/:id/revoke: the key stops working at once (the second factor in the body when two-factor is on). */
export const revokeApiKey = ({ id, ...stepUp }: { id: string } & StepUpFieldsInput) =>
  api.post<{ apiKey: ApiKey }>(`/api/admin/api-keys/${encodeURIComponent(id)}/revoke`, stepUp);

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.apiKeys() }),
  });
}
