import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyBody, CreateApiKeyResponse } from '#shared/schemas/charges';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

/** POST /api/admin/api-keys: the answer holds the key, the only time it is ever shown. */
export const createApiKey = (body: Pick<CreateApiKeyBody, 'name' | 'rateLimitPerMinute'> & StepUpFieldsInput) =>
  api.post<CreateApiKeyResponse>('/api/admin/api-keys', body);

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.apiKeys() }),
  });
}
