import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyListResponse } from '#shared/schemas/charges';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

/** GET /api/admin/api-keys: the charge API's keys (names and prefixes, never the keys). */
export const fetchApiKeys = () => api.get<ApiKeyListResponse>('/api/admin/api-keys');

export const apiKeysQueryOptions = () => queryOptions({ queryKey: adminKeys.apiKeys(), queryFn: fetchApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
